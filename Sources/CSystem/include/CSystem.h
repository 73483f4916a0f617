// Linux headers that the Glibc module does not export.
#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/tcp.h>
#endif
