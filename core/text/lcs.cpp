#include "text/lcs.h"

#include <vector>

namespace rwb::text {

CommonSubstring longestCommonSubstring(std::u32string_view a, std::u32string_view b)
{
    CommonSubstring best;
    if (a.empty() || b.empty())
        return best;
    // Short strings (answers, golds) stay on the stack; long ones use the heap.
    constexpr size_t kStackCells = 256;
    unsigned stackRow[2][kStackCells + 1];
    std::vector<unsigned> heapRow;
    unsigned *prev = stackRow[0];
    unsigned *cur = stackRow[1];
    if (b.size() > kStackCells) {
        heapRow.assign(2 * (b.size() + 1), 0);
        prev = heapRow.data();
        cur = heapRow.data() + b.size() + 1;
    }
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = 0;
    cur[0] = 0;
    for (size_t i = 1; i <= a.size(); ++i) {
        const char32_t ca = a[i - 1];
        for (size_t j = 1; j <= b.size(); ++j) {
            const unsigned v = (ca == b[j - 1]) ? prev[j - 1] + 1 : 0;
            cur[j] = v;
            if (v > best.length) {
                best.length = v;
                best.posA = i - v;
                best.posB = j - v;
            }
        }
        unsigned *t = prev;
        prev = cur;
        cur = t;
        cur[0] = 0;
    }
    return best;
}

} // namespace rwb::text
