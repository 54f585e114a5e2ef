// both.cu - hungry.cu and light.cu in one module, as ptxas compiles a whole module at once
// (tests/data/regs/README.md).
#include "hungry.cu"
#include "light.cu"
