/// Updates from an ``AsyncMotionManager``: ``AsyncMotionManager/updates(buffering:)``
/// (device motion) or ``AsyncMotionManager/frames(buffering:)`` (card frames).
///
/// Each iterator opens the source and starts a loop thread of its own; see
/// ``AsyncMotionManager`` for when it ends and what cancellation does.
public struct MotionUpdateSequence<Element: Sendable>: AsyncSequence, Sendable {
  let manager: AsyncMotionManager
  let buffering: UpdateBuffering
  /// Where the loop sends what this sequence carries.
  let taps: @Sendable (UpdateChannel<Element>) -> UpdateTaps

  public func makeAsyncIterator() -> Iterator {
    let (channel, stream) = UpdateChannel<Element>.make(buffering: buffering)
    UpdateLoop.start(manager: manager, taps: taps(channel), channel: channel)
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
