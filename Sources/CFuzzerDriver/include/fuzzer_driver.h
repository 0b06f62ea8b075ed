#ifndef MMSEARCH_FUZZER_DRIVER_H
#define MMSEARCH_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry for programs that have their own main (SwiftPM gives every executable one). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
