#pragma once

// JSON as people and Python write it: with // line comments (what `rwb task init` writes
// into a task description, so that each guess is explained where it stands), and with
// Python's NaN and Infinity (what json.dumps writes by default).

#include <string>
#include <string_view>

namespace rwb::util {

// `text` with every // comment outside a string replaced by spaces up to its line's end:
// line and column numbers stay those of the file.
std::string withoutJsonComments(std::string_view text);

// `text` with Python's non-finite numbers outside strings (NaN, Infinity, -Infinity, what
// json.dumps writes for float('nan') and float('inf')) replaced by null: what a trainer's
// dump holds for a reward it could not compute reads as None. (Columns after one shift.)
std::string withNonFiniteAsNull(std::string_view text);

} // namespace rwb::util
