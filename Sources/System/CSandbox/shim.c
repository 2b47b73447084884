#define _GNU_SOURCE
#include "CSandbox.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <seccomp.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/landlock.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

// The libseccomp functions the filter uses, bound with dlsym (types checked against seccomp.h).
struct wi_seccomp {
    __typeof__(seccomp_init) *init;
    __typeof__(seccomp_rule_add_array) *rule_add_array;
    __typeof__(seccomp_syscall_resolve_name) *resolve_name;
    __typeof__(seccomp_load) *load;
    __typeof__(seccomp_release) *release;
    __typeof__(seccomp_attr_set) *attr_set;
};

static int wi_bind_seccomp(struct wi_seccomp *s) {
    void *handle = dlopen("libseccomp.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return -ENOENT;
    s->init = (__typeof__(s->init))dlsym(handle, "seccomp_init");
    s->rule_add_array = (__typeof__(s->rule_add_array))dlsym(handle, "seccomp_rule_add_array");
    s->resolve_name = (__typeof__(s->resolve_name))dlsym(handle, "seccomp_syscall_resolve_name");
    s->load = (__typeof__(s->load))dlsym(handle, "seccomp_load");
    s->release = (__typeof__(s->release))dlsym(handle, "seccomp_release");
    s->attr_set = (__typeof__(s->attr_set))dlsym(handle, "seccomp_attr_set");
    return (s->init && s->rule_add_array && s->resolve_name && s->load && s->release && s->attr_set) ? 0 : -ENOENT;
}

// Adds `action` for system call `name` when arguments match `comparisons` (all of them); a name this kernel or
// architecture does not have is skipped.
static int wi_rule(struct wi_seccomp *s, scmp_filter_ctx ctx, uint32_t action, const char *name,
                   unsigned count, const struct scmp_arg_cmp *comparisons) {
    int number = s->resolve_name(name);
    if (number == __NR_SCMP_ERROR) return 0;
    return s->rule_add_array(ctx, action, number, count, comparisons);
}

int wi_sandbox_install(int forbid_opens) {
    struct wi_seccomp s;
    int status = wi_bind_seccomp(&s);
    if (status != 0) return status;
    scmp_filter_ctx ctx = s.init(SCMP_ACT_ALLOW);
    if (!ctx) return -ENOMEM;
    // Every thread of the process, should a runtime have started one already.
    status = s.attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    static const char *const killed[] = {
        "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "execve", "execveat", "fork", "vfork",
        "creat", "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "link", "linkat",
        "symlink", "symlinkat", "chmod", "fchmodat", "chown", "lchown", "fchownat", "truncate", "ptrace",
        "process_vm_readv", "process_vm_writev", "mount", "umount2", "pivot_root", "chroot", "bpf", "perf_event_open",
        "io_uring_setup", "io_uring_enter", "io_uring_register", "keyctl", "add_key", "request_key", "setuid",
        "setgid", "setreuid", "setregid", "setresuid", "setresgid", "init_module", "finit_module", "delete_module",
        "kexec_load", "reboot", "swapon", "swapoff", "setns", "unshare", "userfaultfd",
    };
    for (size_t i = 0; status == 0 && i < sizeof killed / sizeof *killed; i++) {
        status = wi_rule(&s, ctx, SCMP_ACT_KILL_PROCESS, killed[i], 0, NULL);
    }
    // With `forbid_opens`, opening any file ends the process; otherwise opening one for writing, creating or
    // truncating does (open's flags are its second argument, openat's its third).
    static const char *const opening[] = {"open", "openat", "openat2", "open_by_handle_at", "name_to_handle_at"};
    for (size_t i = 0; forbid_opens && status == 0 && i < sizeof opening / sizeof *opening; i++) {
        status = wi_rule(&s, ctx, SCMP_ACT_KILL_PROCESS, opening[i], 0, NULL);
    }
    static const int writing[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND};
    for (size_t i = 0; !forbid_opens && status == 0 && i < sizeof writing / sizeof *writing; i++) {
        struct scmp_arg_cmp open_flags = SCMP_A1(SCMP_CMP_MASKED_EQ, (scmp_datum_t)writing[i], (scmp_datum_t)writing[i]);
        struct scmp_arg_cmp openat_flags = SCMP_A2(SCMP_CMP_MASKED_EQ, (scmp_datum_t)writing[i], (scmp_datum_t)writing[i]);
        status = wi_rule(&s, ctx, SCMP_ACT_KILL_PROCESS, "open", 1, &open_flags);
        if (status == 0) status = wi_rule(&s, ctx, SCMP_ACT_KILL_PROCESS, "openat", 1, &openat_flags);
    }
    // A new process (clone without CLONE_THREAD); threads stay possible.
    if (status == 0) {
        struct scmp_arg_cmp process = SCMP_A0(SCMP_CMP_MASKED_EQ, (scmp_datum_t)CLONE_THREAD, 0);
        status = wi_rule(&s, ctx, SCMP_ACT_KILL_PROCESS, "clone", 1, &process);
    }
    // clone3 and openat2 keep their flags in memory the filter cannot read: refused, so callers fall back.
    if (status == 0) status = wi_rule(&s, ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL);
    if (status == 0 && !forbid_opens) status = wi_rule(&s, ctx, SCMP_ACT_ERRNO(ENOSYS), "openat2", 0, NULL);
    if (status == 0) status = s.load(ctx);
    s.release(ctx);
    return status;
}

int wi_sandbox_prepare_fonts(void) {
    void *handle = dlopen("libfontconfig.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return -ENOENT;
    int (*initialize)(void) = (int (*)(void))dlsym(handle, "FcInit");
    // The handle stays open: the configuration FcInit builds is the one the SVG and PDF libraries use later.
    return initialize && initialize() ? 0 : -EIO;
}

int wi_sandbox_confine_reads(const char *const paths[], int count) {
    // Landlock ABI 1's filesystem rights, all handled: the rules grant reading (and mapping libraries) only.
    struct landlock_ruleset_attr attributes = {.handled_access_fs = (1ULL << 13) - 1};
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) return (errno == ENOSYS || errno == EOPNOTSUPP) ? 1 : -errno;
    for (int i = 0; i < count; i++) {
        int fd = open(paths[i], O_PATH | O_CLOEXEC);
        if (fd < 0) continue;
        struct landlock_path_beneath_attr beneath = {
            .allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE,
            .parent_fd = fd,
        };
        struct stat status;
        if (fstat(fd, &status) == 0 && S_ISDIR(status.st_mode)) beneath.allowed_access |= LANDLOCK_ACCESS_FS_READ_DIR;
        long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
        int error = errno;
        close(fd);
        if (added < 0) {
            close(ruleset);
            return -error;
        }
    }
    int status = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) == 0
        ? 0 : -errno;
    close(ruleset);
    return status;
}

int wi_sandbox_send(int socket, const void *bytes, size_t length, int fd) {
    struct iovec vector = {.iov_base = (void *)bytes, .iov_len = length};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1};
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.buffer;
        message.msg_controllen = sizeof control.buffer;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof(int));
    }
    ssize_t sent;
    do { sent = sendmsg(socket, &message, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    return sent < 0 ? -errno : 0;
}

ssize_t wi_sandbox_receive(int socket, void *buffer, size_t capacity, int *fd) {
    *fd = -1;
    struct iovec vector = {.iov_base = buffer, .iov_len = capacity};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.buffer,
                             .msg_controllen = sizeof control.buffer};
    ssize_t received;
    do { received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); } while (received < 0 && errno == EINTR);
    if (received < 0) return -errno;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS &&
            header->cmsg_len == CMSG_LEN(sizeof(int))) {
            memcpy(fd, CMSG_DATA(header), sizeof(int));
        }
    }
    return received;
}

int wi_sandbox_memfd(const char *name) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int wi_sandbox_spawn(const char *path, char *const argv[], char *const envp[], int child_socket, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawn_file_actions_adddup2(&actions, child_socket, 3);
    if (status == 0) status = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (status == 0) status = posix_spawn(pid, path, &actions, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

int wi_sandbox_die_with_parent(void) {
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    return getppid() == parent ? 0 : -1;
}

int wi_sandbox_limit_memory(unsigned long long bytes) {
    struct rlimit limit = {.rlim_cur = bytes, .rlim_max = bytes};
    return setrlimit(RLIMIT_AS, &limit) == 0 ? 0 : -errno;
}
