#include "util/boundedjson.h"

namespace rwb::util {

std::string tooDeepMessage(int maxDepth)
{
    return "JSON nests deeper than " + std::to_string(maxDepth) + " levels";
}

} // namespace rwb::util
