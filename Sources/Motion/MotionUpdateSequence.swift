/// Updates as an `AsyncSequence`: ``AsyncMotionManager/updates(buffering:)``
/// (device motion), or the card's frames in the Tilt library.
///
/// Each iterator starts a loop thread of its own, which opens the source;
/// see ``AsyncMotionManager`` for when it ends and what cancellation does.
public struct MotionUpdateSequence<Element: Sendable>: AsyncSequence, Sendable {
  let buffering: UpdateBuffering
  /// The loop, on its thread: it sends each update and ends when the
  /// source ends or `stop` says the consumer has gone.
  let loop:
    @Sendable (_ send: @escaping @Sendable (Element) -> Void, _ stop: UpdateStop) throws -> Void

  /// A sequence whose iterators run `loop` on a thread of their own.
  package init(
    buffering: UpdateBuffering,
    loop:
      @escaping @Sendable (_ send: @escaping @Sendable (Element) -> Void, _ stop: UpdateStop)
      throws -> Void
  ) {
    self.buffering = buffering
    self.loop = loop
  }

  public func makeAsyncIterator() -> Iterator {
    let (channel, stream) = UpdateChannel<Element>.make(buffering: buffering)
    UpdateThread.start(channel: channel, loop: loop)
    return Iterator(channel: channel, updates: stream.makeAsyncIterator())
  }

  public struct Iterator: AsyncIteratorProtocol {
    let channel: UpdateChannel<Element>
    var updates: AsyncThrowingStream<Element, any Error>.Iterator

    init(
      channel: UpdateChannel<Element>, updates: AsyncThrowingStream<Element, any Error>.Iterator
    ) {
      self.channel = channel
      self.updates = updates
    }

    /// The most updates the stream has held at once, and how many it
    /// dropped for newer ones (what a test of a slow consumer measures).
    package var buffering: (most: Int, dropped: Int) { channel.buffering }

    /// The next update; `nil` at the end, and once the task is cancelled.
    /// At the end (also by an error) the loop has closed the source before
    /// this returns.
    public mutating func next() async throws -> Element? {
      let element: Element?
      do {
        element = try await updates.next()
      } catch {
        await channel.loopEnded()
        throw error
      }
      guard let element else {
        await channel.loopEnded()
        return nil
      }
      channel.taken()
      return element
    }
  }
}
