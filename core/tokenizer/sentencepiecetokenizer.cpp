#include "tokenizer/sentencepiecetokenizer.h"

#include "data/jsonl.h"
#include "text/utf8.h"
#include "text/unicodeform.h"

#include <cmath>
#include <limits>
#include <queue>

namespace rwb::tokenizer {

namespace {

// The escaped space, U+2581 LOWER ONE EIGHTH BLOCK.
constexpr std::string_view kSpaceMark = "\xE2\x96\x81";
// sentencepiece's penalty for an unknown character in the Unigram lattice: its score is
// the lowest piece score minus this.
constexpr double kUnkPenalty = 10.0;

size_t utf8Length(unsigned char lead)
{
    if ((lead & 0xE0) == 0xC0)
        return 2;
    if ((lead & 0xF0) == 0xE0)
        return 3;
    if ((lead & 0xF8) == 0xF0)
        return 4;
    return 1;
}

// Byte offsets of the characters of `s` (well-formed UTF-8), plus s.size() at the end.
std::vector<size_t> charStarts(std::string_view s)
{
    std::vector<size_t> starts;
    starts.reserve(s.size() + 1);
    for (size_t i = 0; i < s.size();) {
        starts.push_back(i);
        i += std::min(utf8Length(static_cast<unsigned char>(s[i])), s.size() - i);
    }
    starts.push_back(s.size());
    return starts;
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// The byte of a piece spelled "<0xNN>", or -1.
int parseBytePiece(std::string_view piece)
{
    if (piece.size() != 6 || piece.substr(0, 3) != "<0x" || piece[5] != '>')
        return -1;
    const int hi = hexDigit(piece[3]);
    const int lo = hexDigit(piece[4]);
    return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

// sentencepiece's "nmt_nfkc" rule: NFKC plus what its builder adds around it, checked
// code point by code point against libsentencepiece 0.1.97: ASCII and C1 control
// characters are removed, line breaks, tabs and invisible separators become a space,
// and the full-width tilde U+FF5E is kept (NFKC would make it "~").
std::string nmtNfkc(std::string_view text)
{
    const std::u32string in = text::decodeUtf8(text);
    std::u32string mapped;
    mapped.reserve(in.size());
    for (char32_t c : in) {
        if ((c >= 0x01 && c <= 0x08) || c == 0x0B || (c >= 0x0E && c <= 0x1F) || c == 0x7F || c == 0x8F || c == 0x9F)
            continue;
        switch (c) {
        case 0x09: case 0x0A: case 0x0C: case 0x0D: case 0x1680: case 0x200B: case 0x200C: case 0x200E:
        case 0x200F: case 0x2028: case 0x2029: case 0x2581: case 0xFEFF: case 0xFFFD:
            mapped.push_back(U' ');
            break;
        default: mapped.push_back(c);
        }
    }
    // NFKC on the stretches between full-width tildes.
    std::string out;
    size_t from = 0;
    while (from <= mapped.size()) {
        size_t tilde = mapped.find(U'\uFF5E', from);
        if (tilde == std::u32string::npos)
            tilde = mapped.size();
        out += text::toUnicodeForm(text::encodeUtf8(std::u32string_view(mapped).substr(from, tilde - from)), text::UnicodeForm::NFKC);
        if (tilde < mapped.size())
            out += "\xEF\xBD\x9E";
        from = tilde + 1;
    }
    return out;
}

std::string replaceAll(std::string s, std::string_view from, std::string_view to)
{
    size_t at = 0;
    while ((at = s.find(from, at)) != std::string::npos) {
        s.replace(at, from.size(), to);
        at += to.size();
    }
    return s;
}

} // namespace

SentencePieceTokenizer::SentencePieceTokenizer(SentencePieceModel model, const std::string &fileName)
    : m_model(std::move(model))
{
    auto fail = [&](const std::string &field, const std::string &reason) {
        throw data::InputException({fileName, 0, field + ": " + reason});
    };
    const SentencePieceOptions &o = m_model.options;
    if (o.algorithm != SentencePieceAlgorithm::Unigram && o.algorithm != SentencePieceAlgorithm::Bpe)
        fail("trainer_spec.model_type", "model type " + std::to_string(static_cast<int>(o.algorithm)) +
                                            " is not supported (UNIGRAM=1 or BPE=2)");
    if (o.normalizerName != "identity" && o.normalizerName != "nmt_nfkc")
        fail("normalizer_spec.name", "normalizer \"" + o.normalizerName +
                                         "\" is not supported (\"identity\" or \"nmt_nfkc\")");
    const auto n = static_cast<int32_t>(m_model.pieces.size());
    if (n == 0)
        fail("pieces", "none");

    m_byteId.fill(-1);
    m_idText.resize(n);
    m_idByte.assign(n, -1);
    double minScore = std::numeric_limits<double>::max();
    std::vector<AddedTokenMatcher::Entry> userDefined;
    for (int32_t id = 0; id < n; ++id) {
        const SentencePiece &p = m_model.pieces[id];
        const std::string field = "pieces[" + std::to_string(id) + "]";
        if (p.piece.empty())
            fail(field + ".piece", "empty");
        if (!text::isValidUtf8(p.piece))
            fail(field + ".piece", "not valid UTF-8");
        if (!std::isfinite(p.score))
            fail(field + ".score", "not a finite number");
        if (auto [it, inserted] = m_pieceToId.emplace(p.piece, id); !inserted)
            fail(field + ".piece", "\"" + p.piece + "\" is also pieces[" + std::to_string(it->second) + "]");
        switch (p.type) {
        case PieceType::Normal:
        case PieceType::UserDefined:
            m_segmentable.emplace(p.piece, id);
            m_idText[id] = replaceAll(p.piece, kSpaceMark, " ");
            if (p.type == PieceType::Normal) {
                minScore = std::min(minScore, p.score);
                m_maxPieceChars = std::max(m_maxPieceChars, charStarts(p.piece).size() - 1);
            } else {
                userDefined.push_back({p.piece, id, false, false});
            }
            break;
        case PieceType::Unused: m_idText[id] = replaceAll(p.piece, kSpaceMark, " "); break;
        case PieceType::Byte: {
            const int b = parseBytePiece(p.piece);
            if (b < 0)
                fail(field + ".piece", "a BYTE piece must be spelled <0xNN>, not \"" + p.piece + "\"");
            m_byteId[b] = id;
            m_idByte[id] = static_cast<int16_t>(b);
            break;
        }
        case PieceType::Control:
        case PieceType::Unknown: m_idText[id] = p.piece; break;
        }
    }
    m_unknownScore = (minScore == std::numeric_limits<double>::max() ? 0.0 : minScore) - kUnkPenalty;
    if (o.unkId < 0 || o.unkId >= n)
        fail("trainer_spec.unk_id", std::to_string(o.unkId) + " is not a piece (the model has " + std::to_string(n) +
                                        ")");
    if (m_model.pieces[o.unkId].type != PieceType::Unknown)
        fail("trainer_spec.unk_id", "piece " + std::to_string(o.unkId) + " (\"" + m_model.pieces[o.unkId].piece +
                                        "\") is not of type UNKNOWN");
    for (const auto &[name, id] : {std::pair{"trainer_spec.bos_id", o.bosId}, std::pair{"trainer_spec.eos_id", o.eosId},
                                   std::pair{"trainer_spec.pad_id", o.padId}})
        if (id < -1 || id >= n)
            fail(name, std::to_string(id) + " is not a piece (the model has " + std::to_string(n) + ")");
    m_userDefined = AddedTokenMatcher(std::move(userDefined));

    if (o.bosId >= 0)
        setBosId(o.bosId);
    if (o.eosId >= 0)
        setEosId(o.eosId);
    if (o.padId >= 0)
        setPadId(o.padId);
    setAddsBos(o.bosId >= 0);
}

std::unique_ptr<SentencePieceTokenizer> SentencePieceTokenizer::fromFile(const std::string &path)
{
    return std::make_unique<SentencePieceTokenizer>(readSentencePieceModel(path), path);
}

std::string SentencePieceTokenizer::kind() const
{
    return m_model.options.algorithm == SentencePieceAlgorithm::Bpe ? "sentencepiece BPE" : "sentencepiece unigram";
}

std::string SentencePieceTokenizer::normalize(std::string_view text, bool atStart) const
{
    const SentencePieceOptions &o = m_model.options;
    std::string s = text::validUtf8(text);
    if (o.normalizerName == "nmt_nfkc")
        s = nmtNfkc(s);
    if (o.removeExtraWhitespaces) {
        std::string t;
        t.reserve(s.size());
        bool pendingSpace = false;
        for (char c : s) {
            if (c == ' ') {
                pendingSpace = !t.empty();
                continue;
            }
            if (pendingSpace)
                t.push_back(' ');
            pendingSpace = false;
            t.push_back(c);
        }
        s.swap(t);
    }
    if (s.empty())
        return s;
    if (o.addDummyPrefix && atStart)
        s.insert(s.begin(), ' ');
    if (o.escapeWhitespaces)
        s = replaceAll(std::move(s), " ", kSpaceMark);
    return s;
}

void SentencePieceTokenizer::encodePlain(std::string_view text, bool atStart, std::vector<int32_t> &out) const
{
    const std::string s = normalize(text, atStart);
    if (s.empty())
        return;
    auto encodeStretch = [&](std::string_view stretch) {
        if (m_model.options.algorithm == SentencePieceAlgorithm::Bpe)
            encodeBpe(stretch, out);
        else
            encodeUnigram(stretch, out);
    };
    if (m_userDefined.empty()) {
        encodeStretch(s);
        return;
    }
    const std::string_view sv(s);
    for (const AddedTokenMatcher::Segment &seg : m_userDefined.split(sv)) {
        if (seg.id >= 0)
            out.push_back(seg.id);
        else
            encodeStretch(sv.substr(seg.begin, seg.end - seg.begin));
    }
}

int32_t SentencePieceTokenizer::pieceId(std::string_view piece) const
{
    auto it = m_segmentable.find(piece);
    return it == m_segmentable.end() ? -1 : it->second;
}

void SentencePieceTokenizer::appendUnknown(std::string_view surface, std::vector<int32_t> &out) const
{
    if (!m_model.options.byteFallback) {
        out.push_back(m_model.options.unkId);
        return;
    }
    for (unsigned char b : surface) {
        const int32_t id = m_byteId[b];
        out.push_back(id >= 0 ? id : m_model.options.unkId);
    }
}

void SentencePieceTokenizer::setUnknownScore(double score)
{
    m_unknownScore = score;
}

void SentencePieceTokenizer::encodeUnigram(std::string_view text, std::vector<int32_t> &out) const
{
    // Viterbi over character positions: best[e] is the highest total score of a
    // segmentation of the first e characters; from[e] / fromId[e] the last piece's start
    // and id (-1 for an unknown character).
    const std::vector<size_t> starts = charStarts(text);
    const size_t n = starts.size() - 1;
    constexpr double kNone = -std::numeric_limits<double>::infinity();
    std::vector<double> best(n + 1, kNone);
    std::vector<size_t> from(n + 1, 0);
    std::vector<int32_t> fromId(n + 1, -1);
    best[0] = 0.0;
    for (size_t i = 0; i < n; ++i) {
        if (best[i] == kNone)
            continue;
        bool hasSingle = false;
        for (size_t len = 1; len <= m_maxPieceChars && i + len <= n; ++len) {
            const int32_t id = pieceId(text.substr(starts[i], starts[i + len] - starts[i]));
            if (id < 0)
                continue;
            if (len == 1)
                hasSingle = true;
            const double score = best[i] + m_model.pieces[id].score;
            if (score > best[i + len]) {
                best[i + len] = score;
                from[i + len] = i;
                fromId[i + len] = id;
            }
        }
        if (!hasSingle) {
            const double score = best[i] + m_unknownScore;
            if (score > best[i + 1]) {
                best[i + 1] = score;
                from[i + 1] = i;
                fromId[i + 1] = -1;
            }
        }
    }
    // Walk back, then emit in order; runs of unknown characters are emitted together.
    std::vector<std::pair<size_t, int32_t>> path; // (end position, id)
    for (size_t e = n; e > 0; e = from[e])
        path.emplace_back(e, fromId[e]);
    size_t pos = 0;
    size_t unknownFrom = std::string_view::npos;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
        const auto [end, id] = *it;
        if (id < 0) {
            if (unknownFrom == std::string_view::npos)
                unknownFrom = starts[pos];
        } else {
            if (unknownFrom != std::string_view::npos) {
                appendUnknown(text.substr(unknownFrom, starts[pos] - unknownFrom), out);
                unknownFrom = std::string_view::npos;
            }
            out.push_back(id);
        }
        pos = end;
    }
    if (unknownFrom != std::string_view::npos)
        appendUnknown(text.substr(unknownFrom), out);
}

void SentencePieceTokenizer::encodeBpe(std::string_view text, std::vector<int32_t> &out) const
{
    // Symbols are byte ranges of the text, starting with one per character, in a linked
    // list. Candidates (adjacent pairs whose concatenation is a piece) sit in a max-heap
    // by score, leftmost first among equals, and are checked when popped.
    const std::vector<size_t> starts = charStarts(text);
    const size_t n = starts.size() - 1;
    if (n == 0)
        return;
    std::vector<size_t> begin(starts.begin(), starts.end() - 1), end(starts.begin() + 1, starts.end());
    std::vector<int32_t> prev(n), next(n);
    std::vector<bool> alive(n, true);
    for (size_t i = 0; i < n; ++i) {
        prev[i] = static_cast<int32_t>(i) - 1;
        next[i] = i + 1 < n ? static_cast<int32_t>(i + 1) : -1;
    }
    struct Candidate {
        double score;
        int32_t left;
        int32_t right;
        size_t size; // byte length of the merged piece, to detect stale candidates
        bool operator<(const Candidate &o) const { return score != o.score ? score < o.score : left > o.left; }
    };
    std::priority_queue<Candidate> heap;
    auto consider = [&](int32_t l) {
        if (l < 0 || next[l] < 0)
            return;
        const int32_t r = next[l];
        const int32_t id = pieceId(text.substr(begin[l], end[r] - begin[l]));
        if (id >= 0)
            heap.push({m_model.pieces[id].score, l, r, end[r] - begin[l]});
    };
    for (size_t i = 0; i + 1 < n; ++i)
        consider(static_cast<int32_t>(i));
    while (!heap.empty()) {
        const Candidate c = heap.top();
        heap.pop();
        if (!alive[c.left] || !alive[c.right] || next[c.left] != c.right || end[c.right] - begin[c.left] != c.size)
            continue;
        end[c.left] = end[c.right];
        alive[c.right] = false;
        next[c.left] = next[c.right];
        if (next[c.right] >= 0)
            prev[next[c.right]] = c.left;
        consider(prev[c.left]);
        consider(c.left);
    }
    for (int32_t i = 0; i >= 0; i = next[i]) {
        const std::string_view piece = text.substr(begin[i], end[i] - begin[i]);
        const int32_t id = pieceId(piece);
        if (id >= 0)
            out.push_back(id);
        else
            appendUnknown(piece, out);
    }
}

bool SentencePieceTokenizer::appendModelToken(int32_t id, bool &first, std::string &out) const
{
    if (id < 0 || id >= modelVocabSize())
        return false;
    if (m_idByte[id] >= 0) {
        out.push_back(static_cast<char>(m_idByte[id]));
        first = false;
        return true;
    }
    const PieceType type = m_model.pieces[id].type;
    if (type == PieceType::Control || type == PieceType::Unknown) {
        out += m_idText[id];
        return true;
    }
    std::string_view text = m_idText[id];
    if (first && m_model.options.addDummyPrefix && !text.empty() && text[0] == ' ')
        text.remove_prefix(1);
    out += text;
    first = false;
    return true;
}

std::optional<int32_t> SentencePieceTokenizer::modelTokenToId(std::string_view token) const
{
    auto it = m_pieceToId.find(token);
    if (it == m_pieceToId.end())
        return std::nullopt;
    return it->second;
}

std::string SentencePieceTokenizer::modelIdToToken(int32_t id) const
{
    if (id < 0 || id >= modelVocabSize())
        return {};
    return m_model.pieces[id].piece;
}

bool SentencePieceTokenizer::modelIsSpecial(int32_t id) const
{
    if (id < 0 || id >= modelVocabSize())
        return false;
    const PieceType t = m_model.pieces[id].type;
    return t == PieceType::Control || t == PieceType::Unknown;
}

} // namespace rwb::tokenizer
