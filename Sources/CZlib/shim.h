/* The system zlib, for reading gzip-compressed city lists (Sources/MMSearchBuilder/Gzip.swift). */
#include <zlib.h>
