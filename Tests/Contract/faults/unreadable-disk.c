// A disk that stops answering reads, for the status-coverage check (LD_PRELOAD into the service under test).
//
// While the file named by BGEMU_FAULT_SWITCH exists, every pread() of a file whose path starts with
// BGEMU_FAULT_PREFIX (the database, its -wal and -shm files) fails with EIO, as a failing disk's reads do.
// SQLite then reports SQLITE_IOERR_READ and the service must answer 503 storageUnavailable, never 500.
// Everything else passes through to the C library untouched.
//
// Build: cc -shared -fPIC -O2 -o unreadable-disk.so unreadable-disk.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);

// Whether reads of `fd` must fail now: the switch is on and the descriptor names a file under the prefix.
static int must_fail(int fd) {
    const char *sw = getenv("BGEMU_FAULT_SWITCH");
    const char *prefix = getenv("BGEMU_FAULT_PREFIX");
    if (sw == NULL || prefix == NULL || *prefix == '\0' || access(sw, F_OK) != 0) return 0;
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0) return 0;
    target[n] = '\0';
    return strncmp(target, prefix, strlen(prefix)) == 0;
}

static ssize_t faulty_pread(const char *symbol, int fd, void *buf, size_t count, off_t offset) {
    pread_fn real = (pread_fn)dlsym(RTLD_NEXT, symbol);
    if (must_fail(fd)) {
        errno = EIO;
        return -1;
    }
    return real(fd, buf, count, offset);
}

// On 64-bit Linux both names are the same call; SQLite may be built to use either.
ssize_t pread(int fd, void *buf, size_t count, off_t offset) { return faulty_pread("pread", fd, buf, count, offset); }
ssize_t pread64(int fd, void *buf, size_t count, off_t offset) { return faulty_pread("pread64", fd, buf, count, offset); }
