# cmake -DSPV=<file.spv> -DOUT=<file.cc> -DSYMBOL=<name> -DNAMESPACE=<ns>
#       -DHEADER=<header.h> -P MeshvkEmbedSpirv.cmake
# Writes the SPIR-V words of SPV as a uint32_t array. SPIR-V is a stream of
# little-endian 32-bit words, so each 4 bytes are reversed into one literal.
file(READ ${SPV} hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR rem "${hex_len} % 8")
if(hex_len EQUAL 0 OR NOT rem EQUAL 0)
  message(FATAL_ERROR "${SPV}: size is not a positive multiple of 4 bytes")
endif()
math(EXPR word_count "${hex_len} / 8")
set(b "([0-9a-f][0-9a-f])")
string(REGEX REPLACE "${b}${b}${b}${b}" "0x\\4\\3\\2\\1u," words "${hex}")
# Eight words per line keeps the generated file readable in a debugger.
string(REGEX REPLACE "(([^,]*,){8})" "\\1\n  " words "${words}")
file(WRITE ${OUT}.tmp
     "// Generated from ${SPV}\n#include \"${HEADER}\"\n"
     "namespace ${NAMESPACE} {\n"
     "alignas(4) const uint32_t ${SYMBOL}[] = {\n  ${words}\n};\n"
     "const size_t ${SYMBOL}_word_count = ${word_count};\n"
     "}  // namespace ${NAMESPACE}\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
