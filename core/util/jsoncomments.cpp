#include "util/jsoncomments.h"

#include <cctype>

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

std::string withNonFiniteAsNull(std::string_view text)
{
    std::string out(text);
    bool inString = false;
    const auto word = [&](size_t i, std::string_view w) { return out.compare(i, w.size(), w) == 0; };
    const auto boundary = [&](size_t i) {
        return i >= out.size() || !(std::isalnum(static_cast<unsigned char>(out[i])) || out[i] == '_');
    };
    for (size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        for (std::string_view w : {std::string_view("-Infinity"), std::string_view("Infinity"), std::string_view("NaN")}) {
            if (word(i, w) && boundary(i + w.size()) && (i == 0 || boundary(i - 1) || out[i - 1] == '-')) {
                size_t start = i;
                if (w != "-Infinity" && i > 0 && out[i - 1] == '-') // "-NaN" as one token
                    start = i - 1;
                out.replace(start, i + w.size() - start, "null");
                i = start + 3;
                break;
            }
        }
    }
    return out;
}

} // namespace rwb::util
