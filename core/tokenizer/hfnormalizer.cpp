#include "tokenizer/hfnormalizer.h"

#include "text/unicodeform.h"
#include "text/utf8.h"
#include "tokenizer/jsonfieldreader.h"
#include "tokenizer/regexsplitter.h"
#include "util/base64.h"

#include <utf8proc.h>

#include <cstring>
#include <optional>
#include <stdexcept>

namespace rwb::tokenizer {

namespace {

// sentencepiece's precompiled_charsmap: a little-endian uint32 byte size of the trie, the
// trie (darts-clone double-array units), then the NUL-terminated replacements the trie's
// values point into.
class PrecompiledCharsMap {
public:
    // Throws std::invalid_argument saying what is wrong with the blob.
    explicit PrecompiledCharsMap(const std::string &blob)
    {
        if (blob.size() < 4)
            throw std::invalid_argument("shorter than its 4-byte header");
        uint32_t trieBytes = 0;
        for (int i = 3; i >= 0; --i)
            trieBytes = (trieBytes << 8) | static_cast<unsigned char>(blob[static_cast<size_t>(i)]);
        if (trieBytes % 4 != 0 || trieBytes == 0 || trieBytes > blob.size() - 4)
            throw std::invalid_argument("the trie's size (" + std::to_string(trieBytes) + " bytes) does not fit the " +
                                        std::to_string(blob.size()) + " bytes of the map");
        m_units.resize(trieBytes / 4);
        for (size_t u = 0; u < m_units.size(); ++u)
            for (int i = 3; i >= 0; --i)
                m_units[u] = (m_units[u] << 8) | static_cast<unsigned char>(blob[4 + u * 4 + static_cast<size_t>(i)]);
        m_replacements = blob.substr(4 + trieBytes);
        if (!text::isValidUtf8(m_replacements))
            throw std::invalid_argument("its replacements are not UTF-8");
    }

    // The replacement of the shortest rule that matches a prefix of `chunk`, if any.
    std::optional<std::string_view> transform(std::string_view chunk) const
    {
        auto hasLeaf = [](uint32_t u) { return ((u >> 8) & 1) != 0; };
        auto value = [](uint32_t u) { return u & ((1u << 31) - 1); };
        auto label = [](uint32_t u) { return u & ((1u << 31) | 0xFF); };
        auto offset = [](uint32_t u) { return (u >> 10) << ((u & (1u << 9)) >> 6); };
        size_t node = offset(m_units[0]);
        for (unsigned char c : chunk) {
            if (c == 0)
                break;
            node ^= c;
            if (node >= m_units.size() || label(m_units[node]) != c)
                return std::nullopt;
            const uint32_t unit = m_units[node];
            node ^= offset(unit);
            if (node >= m_units.size())
                return std::nullopt;
            if (hasLeaf(unit)) { // the value sits in the unit the offset leads to
                const size_t at = value(m_units[node]);
                if (at > m_replacements.size())
                    return std::nullopt;
                const size_t end = m_replacements.find('\0', at);
                return std::string_view(m_replacements).substr(at, (end == std::string::npos ? m_replacements.size() : end) - at);
            }
        }
        return std::nullopt;
    }

    // `text` (well-formed UTF-8) through the map, grapheme cluster by grapheme cluster.
    // `firstKept` is set false when the first cluster maps to nothing.
    std::string apply(std::string_view text, bool &firstKept) const
    {
        std::string out;
        out.reserve(text.size());
        firstKept = true;
        utf8proc_int32_t state = 0;
        size_t clusterBegin = 0;
        char32_t previous = 0;
        auto flush = [&](size_t begin, size_t end) {
            const std::string_view cluster = text.substr(begin, end - begin);
            const size_t before = out.size();
            std::optional<std::string_view> whole;
            if (cluster.size() < 6)
                whole = transform(cluster);
            if (whole) {
                out += *whole;
            } else {
                for (size_t i = 0; i < cluster.size();) {
                    const size_t len = text::decodeCharAt(cluster, i).second;
                    const std::string_view ch = cluster.substr(i, len);
                    const std::optional<std::string_view> t = transform(ch);
                    out += t ? *t : ch;
                    i += len;
                }
            }
            if (begin == 0 && out.size() == before)
                firstKept = false;
        };
        for (size_t i = 0; i < text.size();) {
            const auto [c, len] = text::decodeCharAt(text, i);
            if (i > 0 && utf8proc_grapheme_break_stateful(static_cast<utf8proc_int32_t>(previous),
                                                           static_cast<utf8proc_int32_t>(c), &state)) {
                flush(clusterBegin, i);
                clusterBegin = i;
            }
            previous = c;
            i += len;
        }
        if (clusterBegin < text.size())
            flush(clusterBegin, text.size());
        return out;
    }

private:
    std::vector<uint32_t> m_units;
    std::string m_replacements;
};

} // namespace

struct HfNormalizer::Step {
    enum class Kind { Form, Lowercase, StripAccents, Strip, ReplaceString, ReplaceRegex, Prepend, Precompiled };
    Kind kind = Kind::Form;
    text::UnicodeForm form = text::UnicodeForm::NFC;
    bool stripLeft = true, stripRight = true;
    std::string pattern;  // ReplaceString: the text to find
    std::string content;  // Replace: what replaces it; Prepend: what goes in front
    std::shared_ptr<const RegexSplitter> regex; // ReplaceRegex
    std::shared_ptr<const PrecompiledCharsMap> charsMap; // Precompiled
};

HfNormalizer::HfNormalizer() = default;
HfNormalizer::~HfNormalizer() = default;
HfNormalizer::HfNormalizer(HfNormalizer &&) noexcept = default;
HfNormalizer &HfNormalizer::operator=(HfNormalizer &&) noexcept = default;

std::u32string unicodeLowercase(const std::u32string &s)
{
    std::u32string out;
    out.reserve(s.size());
    for (char32_t c : s) {
        if (c == 0x130) { // İ: the one full lower-case mapping of two code points
            out.push_back(U'i');
            out.push_back(0x307);
            continue;
        }
        out.push_back(static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
    }
    return out;
}

std::u32string withoutNonspacingMarks(const std::u32string &s)
{
    std::u32string out;
    out.reserve(s.size());
    for (char32_t c : s)
        if (utf8proc_category(static_cast<utf8proc_int32_t>(c)) != UTF8PROC_CATEGORY_MN)
            out.push_back(c);
    return out;
}

HfNormalizer HfNormalizer::fromJson(const JsonFieldReader &r, const nlohmann::json *normalizer, const std::string &path)
{
    HfNormalizer n;
    if (!normalizer)
        return n;
    auto readStep = [&](const nlohmann::json &obj, const std::string &at) {
        r.object(obj, at);
        const std::string typePath = JsonFieldReader::join(at, "type");
        const std::string type = r.string(r.required(obj, at, "type"), typePath);
        Step step;
        if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
            step.kind = Step::Kind::Form;
            step.form = type == "NFC"    ? text::UnicodeForm::NFC
                        : type == "NFD"  ? text::UnicodeForm::NFD
                        : type == "NFKC" ? text::UnicodeForm::NFKC
                                         : text::UnicodeForm::NFKD;
        } else if (type == "Lowercase") {
            step.kind = Step::Kind::Lowercase;
        } else if (type == "StripAccents") {
            step.kind = Step::Kind::StripAccents;
        } else if (type == "Strip") {
            step.kind = Step::Kind::Strip;
            step.stripLeft = r.optionalBoolean(obj, at, "strip_left", true);
            step.stripRight = r.optionalBoolean(obj, at, "strip_right", true);
        } else if (type == "Replace") {
            const std::string patternPath = JsonFieldReader::join(at, "pattern");
            const nlohmann::json &pattern = r.object(r.required(obj, at, "pattern"), patternPath);
            step.content = r.string(r.required(obj, at, "content"), JsonFieldReader::join(at, "content"));
            if (const nlohmann::json *s = r.optional(pattern, "String")) {
                step.kind = Step::Kind::ReplaceString;
                step.pattern = r.string(*s, JsonFieldReader::join(patternPath, "String"));
                if (step.pattern.empty())
                    r.fail(JsonFieldReader::join(patternPath, "String"), "empty");
            } else if (const nlohmann::json *re = r.optional(pattern, "Regex")) {
                step.kind = Step::Kind::ReplaceRegex;
                const std::string regexPath = JsonFieldReader::join(patternPath, "Regex");
                try {
                    step.regex = std::make_shared<const RegexSplitter>(r.string(*re, regexPath));
                } catch (const std::invalid_argument &e) {
                    r.fail(regexPath, std::string("does not compile: ") + e.what());
                }
            } else {
                r.fail(patternPath, "neither \"String\" nor \"Regex\"");
            }
        } else if (type == "Prepend") {
            step.kind = Step::Kind::Prepend;
            step.content = r.string(r.required(obj, at, "prepend"), JsonFieldReader::join(at, "prepend"));
        } else if (type == "Precompiled") {
            // null: the converter's sentencepiece model had no map (identity)
            const nlohmann::json *map = r.optional(obj, "precompiled_charsmap");
            if (!map)
                return;
            step.kind = Step::Kind::Precompiled;
            const std::string mapPath = JsonFieldReader::join(at, "precompiled_charsmap");
            std::string blob;
            if (!util::decodeBase64(r.string(*map, mapPath), blob))
                r.fail(mapPath, "not base64");
            try {
                step.charsMap = std::make_shared<const PrecompiledCharsMap>(blob);
            } catch (const std::invalid_argument &e) {
                r.fail(mapPath, std::string("not a sentencepiece character map: ") + e.what());
            }
        } else {
            r.fail(typePath, "normalizer \"" + type +
                                 "\" is not supported here (NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, Strip, "
                                 "Replace, Prepend, Precompiled or a Sequence of them)");
        }
        n.m_steps.push_back(std::move(step));
    };
    r.object(*normalizer, path);
    if (r.string(r.required(*normalizer, path, "type"), JsonFieldReader::join(path, "type")) == "Sequence") {
        const std::string listPath = JsonFieldReader::join(path, "normalizers");
        const nlohmann::json &list = r.array(r.required(*normalizer, path, "normalizers"), listPath);
        for (size_t i = 0; i < list.size(); ++i) {
            const std::string at = JsonFieldReader::index(listPath, i);
            if (list[i].is_object() && list[i].value("type", std::string()) == "Sequence")
                r.fail(JsonFieldReader::join(at, "type"), "a Sequence inside a Sequence is not supported");
            readStep(list[i], at);
        }
    } else {
        readStep(*normalizer, path);
    }
    return n;
}

bool HfNormalizer::empty() const
{
    return m_steps.empty();
}

std::string HfNormalizer::apply(std::string_view text, bool *keepsStart) const
{
    std::string s(text);
    bool kept = true;
    for (const Step &step : m_steps) {
        switch (step.kind) {
        case Step::Kind::Form: s = text::toUnicodeForm(s, step.form); break;
        case Step::Kind::Lowercase: s = text::encodeUtf8(unicodeLowercase(text::decodeUtf8(s))); break;
        case Step::Kind::StripAccents: s = text::encodeUtf8(withoutNonspacingMarks(text::decodeUtf8(s))); break;
        case Step::Kind::Strip: {
            std::u32string u = text::decodeUtf8(s);
            size_t from = 0, to = u.size();
            if (step.stripLeft)
                while (from < to && text::isWhiteSpace(u[from]))
                    ++from;
            if (step.stripRight)
                while (to > from && text::isWhiteSpace(u[to - 1]))
                    --to;
            s = text::encodeUtf8(std::u32string_view(u).substr(from, to - from));
            kept = kept && from == 0;
            break;
        }
        case Step::Kind::ReplaceString: {
            std::string out;
            size_t at = 0;
            for (size_t hit; (hit = s.find(step.pattern, at)) != std::string::npos; at = hit + step.pattern.size()) {
                out.append(s, at, hit - at).append(step.content);
                kept = kept && !(hit == 0 && step.content.empty());
            }
            out.append(s, at, std::string::npos);
            s.swap(out);
            break;
        }
        case Step::Kind::ReplaceRegex: {
            std::string out;
            size_t at = 0;
            for (const auto &[begin, end] : step.regex->matches(s)) {
                out.append(s, at, begin - at).append(step.content);
                kept = kept && !(begin == 0 && step.content.empty());
                at = end;
            }
            out.append(s, at, std::string::npos);
            s.swap(out);
            break;
        }
        case Step::Kind::Prepend:
            if (!s.empty())
                s.insert(0, step.content);
            break;
        case Step::Kind::Precompiled: {
            bool firstKept = true;
            s = step.charsMap->apply(s, firstKept);
            kept = kept && firstKept;
            break;
        }
        }
    }
    if (keepsStart)
        *keepsStart = kept;
    return s;
}

} // namespace rwb::tokenizer
