// The floor under any mapped open -> first page on this machine: what the kernel alone takes to open and
// map FILE and fault in the pages at the given byte offsets (one byte read at each), with no search code.
// Give it the offsets a real first query touches (`perf record -e page-faults -d` on mmsearch-bench's
// startup child lists them) to see what that query's page faults cost, or fewer offsets to see what a
// layout touching fewer pages could reach. Prints the first round (cold in this process: the one an app
// pays) and a second round (system calls and the kernel's paths warm; a new mapping, so the pages fault
// again), in nanoseconds; run it in many fresh processes and take medians.
// build: cc -O2 map_touch.c -o map_touch      usage: map_touch FILE [OFFSET...]   (offsets: decimal or 0x hex)
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s FILE [OFFSET...]\n", argv[0]); return 2; }
  long long elapsed[2];
  for (int round = 0; round < 2; round++) {
    long long start = now_ns();
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 1; }
    const unsigned char *bytes = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (bytes == MAP_FAILED) { perror("mmap"); return 1; }
    volatile unsigned sum = 0;
    for (int i = 2; i < argc; i++) {
      long long offset = strtoll(argv[i], NULL, 0);
      if (offset < 0 || offset >= st.st_size) { fprintf(stderr, "%s: offset %s is past the file's end\n", argv[0], argv[i]); return 2; }
      sum += bytes[offset];
    }
    elapsed[round] = now_ns() - start;
    munmap((void *)bytes, (size_t)st.st_size);
  }
  printf("first_ns=%lld second_ns=%lld pages=%d\n", elapsed[0], elapsed[1], argc - 2);
  return 0;
}
