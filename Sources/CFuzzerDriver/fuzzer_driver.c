/* Declarations only (see include/fuzzer_driver.h); libFuzzer defines LLVMFuzzerRunDriver. */
#include "fuzzer_driver.h"
