#pragma once

#include "tokenizer/addedtokenmatcher.h"
#include "tokenizer/sentencepiecemodel.h"
#include "tokenizer/stringmap.h"
#include "tokenizer/tokenizer.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace rwb::tokenizer {

// A sentencepiece model (tokenizer.model of Llama 2, sarashina, …) run without
// libsentencepiece:
//   normalize (identity, or nmt_nfkc as Unicode NFKC) → remove extra white space →
//   dummy prefix "▁" at the start of the text → spaces become "▁" (U+2581) →
//   USER_DEFINED pieces cut out greedily (leftmost-longest) → Unigram: the Viterbi
//   segmentation of highest total score; BPE: merge the adjacent pair whose merged piece
//   scores highest (leftmost among equals) until none applies → characters with no piece
//   become <0xNN> byte pieces (byte_fallback) or the unknown piece (consecutive ones
//   share one).
// CONTROL pieces (<s>, chat markers) never come out of plain text; added tokens from
// tokenizer_config.json are cut out of the raw text first (Tokenizer::encode).
// Decoding writes "▁" as a space, byte pieces as their byte, and drops the dummy prefix
// space of the first piece.
//
// Threads: const members may be called from several threads at once.
class SentencePieceTokenizer : public Tokenizer {
public:
    // Checks the model: pieces non-empty and unique, byte pieces spelled <0xNN>, one
    // UNKNOWN piece at unk_id, a supported algorithm (Unigram, BPE) and normalizer
    // ("identity", "nmt_nfkc"). Throws data::InputException naming `fileName` and the field.
    SentencePieceTokenizer(SentencePieceModel model, const std::string &fileName);

    static std::unique_ptr<SentencePieceTokenizer> fromFile(const std::string &path);

    std::string kind() const override;
    const SentencePieceModel &model() const { return m_model; }
    int32_t unkId() const { return m_model.options.unkId; }

protected:
    void encodePlain(std::string_view text, bool atStart, std::vector<int32_t> &out) const override;
    bool appendModelToken(int32_t id, bool &first, std::string &out) const override;
    int32_t modelVocabSize() const override { return static_cast<int32_t>(m_model.pieces.size()); }
    std::optional<int32_t> modelTokenToId(std::string_view token) const override;
    std::string modelIdToToken(int32_t id) const override;
    bool modelIsSpecial(int32_t id) const override;

    // Segments one stretch (normalized, escaped, without user-defined pieces) by the
    // Viterbi path of highest total score.
    void encodeUnigram(std::string_view text, std::vector<int32_t> &out) const;
    // The score of an unknown character in the Unigram lattice; by default sentencepiece's,
    // the lowest NORMAL piece's score minus 10.
    void setUnknownScore(double score);

private:
    // The normalized, escaped text ready for segmentation.
    std::string normalize(std::string_view text, bool atStart) const;
    void encodeBpe(std::string_view text, std::vector<int32_t> &out) const;
    // The id of a segmentable piece (NORMAL or USER_DEFINED), or -1.
    int32_t pieceId(std::string_view piece) const;
    // Appends the ids for a stretch with no piece: byte pieces, or one unknown id.
    void appendUnknown(std::string_view surface, std::vector<int32_t> &out) const;

    SentencePieceModel m_model;
    StringMap<int32_t> m_pieceToId;   // every piece
    StringMap<int32_t> m_segmentable; // NORMAL and USER_DEFINED pieces
    AddedTokenMatcher m_userDefined;
    std::array<int32_t, 256> m_byteId{};  // the <0xNN> piece of each byte, -1 if none
    std::vector<std::string> m_idText;    // what each piece decodes to
    std::vector<int16_t> m_idByte;        // the byte of a BYTE piece, else -1
    size_t m_maxPieceChars = 1;
    double m_unknownScore = -10.0;
};

} // namespace rwb::tokenizer
