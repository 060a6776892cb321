import Attitude
import SensorData

extension MotionManager {
  /// Starts the fusion from the bias `store` keeps for `device`, when there
  /// is one and the manager has a gyroscope; says so, or why it could not
  /// be read, through `onNote`.
  package func seedGyroscopeBias(
    from store: GyroBiasStore?, for device: DeviceInfo, onNote: (MotionNote) -> Void
  ) {
    guard hasGyroscope, let store else { return }
    do throws(StoreError) {
      if let stored = try store.load(for: device) {
        seedGyroscopeBias(stored.estimate)
        onNote(.startsFromStoredGyroscopeBias(stored))
      }
    } catch {
      onNote(.storedGyroscopeBiasProblem(error))
    }
  }

  /// Keeps what the fusion learned of the gyroscope's bias for the next
  /// start of `device`, when a rest of this run confirmed it; a store that
  /// cannot be written is said through `onNote`.
  package func storeGyroscopeBias(
    in store: GyroBiasStore?, for device: DeviceInfo, onNote: (MotionNote) -> Void
  ) {
    guard let store, let estimate = gyroscopeBiasEstimate, estimate.isConfirmedByRest
    else { return }
    do throws(StoreError) {
      try store.save(StoredGyroBias(estimate, samples: 0, origin: .rest), for: device)
    } catch {
      onNote(.storedGyroscopeBiasProblem(error))
    }
  }
}
