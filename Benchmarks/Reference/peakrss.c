// peakrss: runs a command as a child of this small process and prints `seconds <wall>`, `cpu <user+system>` and
// `rss_mib <peak resident set>` of that child alone. (A child started by Python directly inherits the
// interpreter's resident pages in its peak, ru_maxrss, until it calls exec.)
// Built by Benchmarks/compare: gcc -O2 peakrss.c
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: peakrss COMMAND [ARG...]\n");
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child < 0) {
        perror("peakrss: fork");
        return 2;
    }
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);   // the command's output is not part of the measurement
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(child, &status, 0, &usage) < 0) {
        perror("peakrss: wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "peakrss: %s failed (status %d)\n", argv[1], status);
        return 1;
    }
    printf("seconds %.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) * 1e-9);
    printf("cpu %.6f\n", usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
                         + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6);
    printf("rss_mib %.2f\n", usage.ru_maxrss / 1024.0);
    return 0;
}
