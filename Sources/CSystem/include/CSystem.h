// Linux headers that the Glibc module does not export.
#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/tcp.h>
// malloc_trim(3): returning the memory of closed event streams to the system.
#include <malloc.h>

// accept4(2) is declared by <sys/socket.h> only under _GNU_SOURCE, which the Glibc module is built without.
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// Names the calling thread (prctl PR_SET_NAME: at most 15 bytes are kept), for top -H, ps -L and profilers.
void csystem_name_thread(const char *name);

// The processors the calling thread may run on (sched_getaffinity), in ascending order: writes at most
// `capacity` of them to `cpus` and returns how many there are, or -1 with errno set.
int csystem_allowed_cpus(int *cpus, int capacity);

// Binds the calling thread to one processor (pthread_setaffinity_np); 0 or an errno.
int csystem_bind_thread(int cpu);

// The processor the calling thread runs on now (sched_getcpu), or -1.
int csystem_current_cpu(void);

// The processor that last handled a socket's incoming packets (SO_INCOMING_CPU), or -1 when unknown.
int csystem_incoming_cpu(int fd);
// Frees the blocks and page cache of a file's first `length` bytes, keeping its size (fallocate(2) with
// FALLOC_FL_PUNCH_HOLE): the bytes read as zeros afterwards. 0 or an errno (EOPNOTSUPP on a file system without it).
int csystem_punch_hole(int fd, long long length);
#endif
