// Linux headers that the Glibc module does not export.
#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/tcp.h>

// accept4(2) is declared by <sys/socket.h> only under _GNU_SOURCE, which the Glibc module is built without.
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// Names the calling thread (prctl PR_SET_NAME: at most 15 bytes are kept), for top -H, ps -L and profilers.
void csystem_name_thread(const char *name);
#endif
