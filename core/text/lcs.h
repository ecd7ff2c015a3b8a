#pragma once

#include <cstddef>
#include <string_view>

namespace rwb::text {

// The longest common substring (contiguous) of two code-point strings.
// length is 0 when there is none; otherwise a[posA, posA+length) == b[posB, posB+length).
// Among several of the same length, the one that starts first in `a` (then in `b`) wins.
struct CommonSubstring {
    size_t length = 0;
    size_t posA = 0;
    size_t posB = 0;
};

// O(|a|·|b|) time, O(|b|) memory. Thread-safe.
CommonSubstring longestCommonSubstring(std::u32string_view a, std::u32string_view b);

} // namespace rwb::text
