/// Standard gravity, m/s² per g (9.80665 by definition): how a reading in
/// m/s² (a CSV log's `acc_…_m_s2` columns, an IIO accelerometer's scale)
/// becomes the g that samples are in (contract §1.4).
public let standardGravity = 9.80665
