#pragma once

// JSON with // line comments (what `rwb task init` writes into a task description, so
// that each guess is explained where it stands).

#include <string>
#include <string_view>

namespace rwb::util {

// `text` with every // comment outside a string replaced by spaces up to its line's end:
// line and column numbers stay those of the file.
std::string withoutJsonComments(std::string_view text);

} // namespace rwb::util
