#ifndef MMSEARCH_HTTP_SYSTEM_H
#define MMSEARCH_HTTP_SYSTEM_H

/* What the C library modules Swift imports leave out: epoll (Glibc's module has no sys/epoll.h) and
   accept4 (declared only under _GNU_SOURCE). Used by MMSearchHTTP's ServerSystemCall.swift alone. */
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/socket.h>

/* accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC): the new socket non-blocking and closed on
   exec in one call. */
int mmsearch_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length);
#endif

#endif
