// CSandbox: what a decode worker process needs from the C library and the kernel, in one place:
// - the seccomp filter (libseccomp, opened with dlopen by the worker only, so that `wi serve` and every app that
//   never starts a worker never load it);
// - passing a file descriptor over a Unix socket (SCM_RIGHTS needs the CMSG_* macros, which Swift cannot call);
// - memfd_create, posix_spawn with the worker's socket as its descriptor 3.
#ifndef CSANDBOX_H
#define CSANDBOX_H
#include <stddef.h>
#include <sys/types.h>

/// Loads libseccomp and installs the worker's filter on every thread of the calling process, and on the threads
/// and processes it starts later. Returns 0, or a negative errno (-ENOENT: libseccomp.so.2 cannot be opened).
///
/// Killed (SIGSYS) on: creating sockets, connecting, binding, listening, accepting; exec; fork and vfork, clone
/// without CLONE_THREAD; unlink, rename, mkdir, rmdir, link, symlink, chmod, chown, truncate by path; ptrace,
/// process_vm_*, mount, bpf, perf_event_open, io_uring, keyctl, setuid and friends; clone3 answers ENOSYS (glibc
/// then creates threads with clone, which the filter checks). With `forbid_opens`, opening any file (open,
/// openat, openat2, open_by_handle_at) kills too: the worker opened its libraries before. Without it, opening a
/// file for writing or creating one kills (openat2 answers ENOSYS) and reading stays allowed: fontconfig and
/// FreeType open fonts on demand while SVG and PDF text is drawn (wi_sandbox_confine_reads limits where).
int wi_sandbox_install(int forbid_opens);

/// Opens fontconfig (libfontconfig.so.1, with dlopen) and runs FcInit: its configuration is read and the caches
/// of stale font folders are rebuilt and written now, while the process may still write. Returns 0, -ENOENT
/// when fontconfig cannot be opened, -EIO when FcInit fails.
int wi_sandbox_prepare_fonts(void);

/// Confines the process's file reads to the folders (or files) in `paths` with Landlock: afterwards nothing can
/// be opened outside them, and nothing written or created anywhere (paths that do not exist are skipped).
/// Returns 0, 1 when the kernel has no Landlock (nothing is confined), or a negative errno.
int wi_sandbox_confine_reads(const char *const paths[], int count);

/// Sends `length` bytes and, when `fd` >= 0, that descriptor (SCM_RIGHTS) as one message. Returns 0 or -errno.
int wi_sandbox_send(int socket, const void *bytes, size_t length, int fd);

/// Receives one message into `buffer`; `*fd` gets a passed descriptor or -1. Returns the byte count (0 when the
/// peer closed), or -errno.
ssize_t wi_sandbox_receive(int socket, void *buffer, size_t capacity, int *fd);

/// memfd_create(name, MFD_CLOEXEC): -errno on failure.
int wi_sandbox_memfd(const char *name);

/// Starts `path` with `argv` (NULL-terminated) and `envp`, with `child_socket` as its descriptor 3 and its
/// standard input from /dev/null (standard output and error are inherited); `*pid` gets its process id.
/// Returns 0 or an errno value.
int wi_sandbox_spawn(const char *path, char *const argv[], char *const envp[], int child_socket, pid_t *pid);

/// Asks the kernel to SIGKILL this process when its parent dies (PR_SET_PDEATHSIG), so that a worker busy in a
/// decode does not outlive a service that was killed. Returns 0, or -1 when the parent is already gone.
int wi_sandbox_die_with_parent(void);

/// Sets the process's address-space limit (RLIMIT_AS) to `bytes`. Returns 0 or -errno.
int wi_sandbox_limit_memory(unsigned long long bytes);

#endif
