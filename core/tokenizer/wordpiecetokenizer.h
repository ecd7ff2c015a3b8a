#pragma once

#include "tokenizer/stringmap.h"
#include "tokenizer/tokenizer.h"
#include "text/unicodeform.h"

#include <nlohmann/json_fwd.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rwb::tokenizer {

// Hugging Face WordPiece, as BERT-family models (bert-base-*, MiniLM, e5-small/base
// English, BGE English) write it in tokenizer.json:
//   added tokens cut out of the raw text → normalizer (BertNormalizer: clean the text,
//   put spaces around CJK ideographs, strip accents, lowercase) → pre-tokenizer
//   (BertPreTokenizer: split on white space, removed, and on punctuation, each mark a
//   word of its own) → WordPiece on each word: the longest vocabulary entry from the
//   start, then the longest "##"-prefixed entry from where it ended, and so on; a word
//   with a rest that no entry covers, or longer than max_input_chars_per_word
//   characters, becomes the unknown token as a whole.
// encode() adds no [CLS] / [SEP]: SequenceTemplate (sequencetemplate.h) reads what the
// file's post_processor adds.
//
// Unicode: categories and lower case come from utf8proc (the simple lower-case mapping,
// plus İ → "i̇" as Rust's full mapping has it); accents are stripped by NFD and dropping
// the nonspacing marks (Mn).
//
// Threads: const members may be called from several threads at once.
class WordPieceTokenizer : public Tokenizer {
public:
    // One step of the normalizer; they run in order (a Hugging Face "Sequence").
    struct NormalizerStep {
        enum class Kind { Bert, Form, Lowercase, StripAccents };
        Kind kind = Kind::Bert;
        // Bert: the four BertNormalizer switches (strip_accents null means "as lowercase").
        bool cleanText = true;
        bool handleChineseChars = true;
        bool stripAccents = true;
        bool lowercase = true;
        // Form: NFC, NFD, NFKC or NFKD.
        text::UnicodeForm form = text::UnicodeForm::NFC;
    };

    struct Options {
        // bert-base-uncased's: one BertNormalizer with every switch on.
        std::vector<NormalizerStep> normalizer = {NormalizerStep{}};
        // BertPreTokenizer (white space and punctuation) when true; else WhitespaceSplit.
        bool splitPunctuation = true;
        std::string unkToken = "[UNK]";
        std::string continuingSubwordPrefix = "##";
        int maxInputCharsPerWord = 100;
        // The decoder (tokenizer.json's "decoder"): Hugging Face's WordPiece decoder puts a
        // space before every token but the first unless it starts with decodePrefix (then
        // dropped), and with decodeCleanup glues " .", " ?", " !", " ,", " n't", " 'm",
        // " 's", " 've", " 're" in each token. No decoder: tokens joined by spaces as they are.
        std::string decodePrefix = "##";
        bool decodeCleanup = true;
    };

    // `vocab` maps pieces ("play", "##ing") to ids. Throws std::invalid_argument for a
    // negative or repeated id, an unknown token not in the vocabulary, or options out of range.
    WordPieceTokenizer(std::unordered_map<std::string, int32_t> vocab, Options options);

    // Reads tokenizer.json: model.type "WordPiece"; normalizer BertNormalizer, NFC/NFD/
    // NFKC/NFKD, Lowercase, StripAccents, a Sequence of them or null; pre_tokenizer
    // BertPreTokenizer or WhitespaceSplit (alone or in a Sequence of one); added_tokens.
    // Throws data::InputException naming the file and the field ("model.vocab",
    // "pre_tokenizer.type").
    static std::unique_ptr<WordPieceTokenizer> fromJson(const nlohmann::json &doc, const std::string &fileName);
    // True when a parsed tokenizer.json has model.type "WordPiece".
    static bool isWordPiece(const nlohmann::json &doc);

    std::string kind() const override { return "WordPiece"; }
    const Options &options() const { return m_options; }

    // The normalizer's output for `text` (for tests and tools).
    std::string normalize(std::string_view text) const;
    // The words the pre-tokenizer cuts normalized text into.
    std::vector<std::string> preTokenize(std::string_view normalized) const;

protected:
    void encodePlain(std::string_view text, bool atStart, std::vector<int32_t> &out) const override;
    bool appendModelToken(int32_t id, bool &first, std::string &out) const override;
    void appendAddedToken(const std::string &content, bool &first, std::string &out) const override;
    int32_t modelVocabSize() const override { return static_cast<int32_t>(m_idToToken.size()); }
    std::optional<int32_t> modelTokenToId(std::string_view token) const override;
    std::string modelIdToToken(int32_t id) const override;
    bool modelIsSpecial(int32_t id) const override { return id == m_unkId; }

private:
    // Appends the pieces of one word.
    void encodeWord(std::string_view word, std::vector<int32_t> &out) const;

    Options m_options;
    StringMap<int32_t> m_vocab;
    std::vector<std::string> m_idToToken; // "" in holes
    int32_t m_unkId = -1;
};

} // namespace rwb::tokenizer
