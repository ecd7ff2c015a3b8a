#include "util/jsoncomments.h"

namespace rwb::util {

std::string withoutJsonComments(std::string_view text)
{
    std::string out(text);
    bool inString = false;
    for (size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character, whatever it is
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n')
                out[i++] = ' ';
        }
    }
    return out;
}

} // namespace rwb::util
