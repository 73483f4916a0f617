// The C target's one source file: what include/CSystem.h declares that Glibc's headers do not give Swift.
#define _GNU_SOURCE  // sched_getaffinity, pthread_setaffinity_np and the CPU_* macros
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include "CSystem.h"

void csystem_name_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

int csystem_allowed_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        if (count < capacity) cpus[count] = cpu;
        count++;
    }
    return count;
}

int csystem_bind_thread(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

int csystem_current_cpu(void) { return sched_getcpu(); }

int csystem_incoming_cpu(int fd) {
    int cpu = -1;
    socklen_t length = sizeof cpu;
    if (getsockopt(fd, SOL_SOCKET, SO_INCOMING_CPU, &cpu, &length) != 0) return -1;
    return cpu;
}

int csystem_punch_hole(int fd, long long length) {
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)length) == 0 ? 0 : errno;
}
