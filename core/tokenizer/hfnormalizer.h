#pragma once

#include <nlohmann/json_fwd.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::tokenizer {

class JsonFieldReader;
class RegexSplitter;

// A tokenizer.json "normalizer" run as Hugging Face tokenizers runs it, step by step
// (a "Sequence" runs its steps in order):
//   NFC, NFD, NFKC, NFKD  the Unicode normal forms
//   Lowercase             utf8proc's simple lower case, plus İ → "i̇" (Rust's full mapping)
//   StripAccents          drops nonspacing marks (Mn); files put NFD before it
//   Strip                 strip_left / strip_right: Unicode White_Space off the ends
//   Replace               pattern {"String": s} or {"Regex": r} (Oniguruma, as tokenizers
//                         compiles it), every non-overlapping match → content
//   Prepend               prepend, in front of a text that is not empty
//   Precompiled           sentencepiece's compiled character map (precompiled_charsmap,
//                         base64: a darts double-array trie over UTF-8 and the
//                         replacements), applied as tokenizers applies it: a grapheme
//                         cluster under 6 bytes is looked up whole, else character by
//                         character, and the shortest rule matching a prefix replaces
//                         the whole chunk (so half-width ﾊﾟ stays two characters,
//                         ハ and the combining U+309A, not パ)
// Immutable after construction; apply() may be called from several threads at once.
class HfNormalizer {
public:
    HfNormalizer();
    ~HfNormalizer();
    HfNormalizer(HfNormalizer &&) noexcept;
    HfNormalizer &operator=(HfNormalizer &&) noexcept;

    // Reads `normalizer` (nullptr: the identity) at field `path` of the file `r` reads.
    // An unknown or malformed step fails through `r`, naming the field
    // ("normalizer.normalizers[1].pattern.Regex").
    static HfNormalizer fromJson(const JsonFieldReader &r, const nlohmann::json *normalizer,
                                 const std::string &path = "normalizer");

    // True when there is no step.
    bool empty() const;
    // `text` (well-formed UTF-8) normalized. `keepsStart`, when given, is set false when
    // a step removed the text's first character without putting something in its place
    // (Strip, a Replace by "", Precompiled dropping a control character): tokenizers'
    // offsets then no longer begin at 0, which Metaspace's prepend_scheme "first" reads.
    std::string apply(std::string_view text, bool *keepsStart = nullptr) const;

private:
    struct Step;
    std::vector<Step> m_steps;
};

// Lower case as Rust's char::to_lowercase gives it for everything tokenizers users meet:
// utf8proc's simple mapping, plus İ (U+0130) → "i̇".
std::u32string unicodeLowercase(const std::u32string &s);
// `s` without its nonspacing marks (general category Mn).
std::u32string withoutNonspacingMarks(const std::u32string &s);

} // namespace rwb::tokenizer
