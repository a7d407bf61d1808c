// The C consumer compiled as C++: the C API's headers and initializers must
// compile (and mean the same) in both languages.
#include "consumer.c"  // NOLINT(bugprone-suspicious-include)
