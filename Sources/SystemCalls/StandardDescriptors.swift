import Glibc

/// `STDIN_FILENO`.
package let standardInputDescriptor: Int32 = STDIN_FILENO
/// `STDOUT_FILENO`.
package let standardOutputDescriptor: Int32 = STDOUT_FILENO
/// `STDERR_FILENO`.
package let standardErrorDescriptor: Int32 = STDERR_FILENO
/// `EPIPE`: the reader of a pipe went away.
package let brokenPipeErrorNumber: Int32 = EPIPE
