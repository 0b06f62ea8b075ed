// Startup of marisa-trie, timed as mmsearch-bench times mmsearch's: in this (fresh) process, from before
// the trie is mapped to holding the first page (20 keys) of a predictive search for QUERY. Then the trie
// is closed and opened again the same way (the second open: the library's code and the file's pages
// already in use by this process). Prints key=value pairs for mmsearch-bench.
// build: g++ -O2 -std=c++17 marisa_open.cc -lmarisa -o marisa_open      usage: marisa_open TRIE QUERY
#include <marisa.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

static unsigned long long now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

// VmRSS, RssFile and RssAnon of this process, in KiB.
static void resident(long *rss, long *file, long *anon) {
  *rss = *file = *anon = 0;
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f) return;
  char line[256];
  while (std::fgets(line, sizeof line, f)) {
    if (!std::strncmp(line, "VmRSS:", 6)) *rss = std::atol(line + 6);
    if (!std::strncmp(line, "RssFile:", 8)) *file = std::atol(line + 8);
    if (!std::strncmp(line, "RssAnon:", 8)) *anon = std::atol(line + 8);
  }
  std::fclose(f);
}

// Maps the trie and reads the first page of QUERY; returns the nanoseconds taken and the page's size.
static unsigned long long open_first_page(const char *path, const std::string &query, std::vector<std::string> &page) {
  unsigned long long start = now_ns(), elapsed;
  {
    marisa::Trie trie;
    trie.mmap(path);
    marisa::Agent agent;
    agent.set_query(query.c_str(), query.size());
    page.clear();
    while (page.size() < 20 && trie.predictive_search(agent)) page.emplace_back(agent.key().ptr(), agent.key().length());
    elapsed = now_ns() - start;
  }  // unmapped here, untimed
  return elapsed;
}

int main(int argc, char **argv) {
  if (argc != 3) { std::fprintf(stderr, "usage: %s TRIE QUERY\n", argv[0]); return 2; }
  std::vector<std::string> page;
  page.reserve(20);
  long rss0, file0, anon0, rss1, file1, anon1;
  resident(&rss0, &file0, &anon0);
  unsigned long long first = open_first_page(argv[1], argv[2], page);
  resident(&rss1, &file1, &anon1);
  size_t results = page.size();
  unsigned long long second = open_first_page(argv[1], argv[2], page);
  std::printf("engine=marisa open_first_ns=%llu second_open_ns=%llu results=%zu rss_before_kib=%ld rss_after_kib=%ld "
              "file_growth_kib=%ld anonymous_growth_kib=%ld\n",
              first, second, results, rss0, rss1, file1 - file0, anon1 - anon0);
  return 0;
}
