#include "text/placeholders.h"

#include <stdexcept>

namespace rwb::text {

std::string expandPlaceholders(const std::string &tmpl, const std::function<std::string(const std::string &)> &value,
                               std::string_view owner)
{
    std::string out;
    size_t i = 0;
    while (i < tmpl.size()) {
        const size_t open = tmpl.find('{', i);
        if (open == std::string::npos) {
            out.append(tmpl, i, std::string::npos);
            break;
        }
        out.append(tmpl, i, open - i);
        const size_t close = tmpl.find('}', open);
        if (close == std::string::npos)
            throw std::logic_error(std::string(owner) + ": unclosed placeholder in \"" + tmpl + "\"");
        out += value(tmpl.substr(open + 1, close - open - 1));
        i = close + 1;
    }
    return out;
}

} // namespace rwb::text
