#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::tokenizer {

// Finds added tokens (chat markers, <think>, user-defined pieces) in raw text, as Hugging
// Face does before normalization: leftmost match first, and of the tokens that start
// there the longest. lstrip / rstrip tokens also swallow the white space (Unicode
// White_Space) before / after them; a single_word token counts only where the characters
// either side of it are not word characters (Rust regex's Unicode \w), and a match it
// rejects stays plain text, the search going on after it. Immutable after construction;
// safe to use from several threads.
class AddedTokenMatcher {
public:
    struct Entry {
        std::string content; // the exact text to find; an empty content is ignored
        int32_t id = -1;
        bool lstrip = false;
        bool rstrip = false;
        bool singleWord = false;
    };

    // One stretch of the text: either plain text (id -1) or an added token.
    struct Segment {
        size_t begin = 0; // byte offsets into the text
        size_t end = 0;
        int32_t id = -1;  // the added token's id, or -1 for plain text
    };

    AddedTokenMatcher() = default;
    explicit AddedTokenMatcher(std::vector<Entry> entries);

    bool empty() const { return m_entries.empty(); }

    // The text cut into plain stretches and added tokens, in order. Plain stretches are
    // never empty; white space swallowed by lstrip / rstrip belongs to no segment.
    std::vector<Segment> split(std::string_view text) const;

private:
    std::vector<Entry> m_entries;
    // For each first byte, the indices of the entries starting with it, longest first.
    std::array<std::vector<uint32_t>, 256> m_byFirstByte;
};

} // namespace rwb::tokenizer
