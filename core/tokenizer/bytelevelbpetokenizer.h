#pragma once

#include "tokenizer/stringmap.h"
#include "tokenizer/tokenizer.h"
#include "text/unicodeform.h"

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rwb::tokenizer {

class RegexSplitter;

// Hugging Face byte-level BPE, as Qwen2 / Qwen3 (and GPT-2, Llama 3, the project's own
// trainer) write it in tokenizer.json:
//   added tokens cut out of the raw text → normalizer (NFC) → pre-tokenizer (Split by the
//   file's regex, Isolated; ByteLevel maps every byte to one printable character) → BPE
//   on each piece, merging the adjacent pair of lowest rank until none applies.
// Decoding maps the byte-level characters back to bytes.
//
// Threads: const members may be called from several threads at once (the word cache
// takes a lock). Configure added tokens before sharing.
class ByteLevelBpeTokenizer : public Tokenizer {
public:
    // One step of the pre-tokenizer; the steps run in order over every piece, as in a
    // Hugging Face "Sequence".
    struct PreTokenizerStep {
        enum class Kind { Split, ByteLevel };
        Kind kind = Kind::ByteLevel;
        // Split: the pattern, an Oniguruma regex, or a literal string when `literal`.
        std::string pattern;
        bool literal = false;
        // Split: behaviour "Removed" drops the matches; otherwise "Isolated" keeps each
        // match as a piece of its own.
        bool removeMatches = false;
        // ByteLevel: put a space in front of a piece that does not start with one.
        bool addPrefixSpace = false;
        // ByteLevel: split with GPT-2's regex before mapping the bytes.
        bool useRegex = false;

        static PreTokenizerStep split(std::string regex);
        static PreTokenizerStep byteLevel(bool useRegex = false);
    };

    struct Options {
        // Applied in order; empty for none.
        std::vector<text::UnicodeForm> normalizer = {text::UnicodeForm::NFC};
        // Qwen's: Split(kQwenSplitRegex, Isolated), then ByteLevel without its own regex.
        std::vector<PreTokenizerStep> preTokenizer;
        // A piece that is itself in the vocabulary is taken whole (Llama 3).
        bool ignoreMerges = false;
        // The token for characters that have no id; without one they are dropped (as
        // Hugging Face does).
        std::string unkToken;
    };

    // Qwen's options: NFC, Split(Qwen regex, Isolated), ByteLevel(use_regex false).
    static Options qwenOptions();

    // `vocab` maps tokens (in byte-level spelling, "Ġthe") to ids; `merges` are in rank
    // order, each pair's concatenation must be in the vocabulary too. Throws
    // std::invalid_argument naming "vocab" / "merges[i]" / the pre-tokenizer step at fault.
    ByteLevelBpeTokenizer(std::unordered_map<std::string, int32_t> vocab,
                          const std::vector<std::pair<std::string, std::string>> &merges, Options options);
    ~ByteLevelBpeTokenizer() override;

    // Reads tokenizer.json: model.type "BPE" with a ByteLevel pre-tokenizer step, merges
    // as "a b" strings or ["a", "b"] pairs, the added_tokens. Throws data::InputException
    // naming the file and the field ("model.merges[12]", "pre_tokenizer.pretokenizers[0].type").
    static std::unique_ptr<ByteLevelBpeTokenizer> fromFile(const std::string &path);
    static std::unique_ptr<ByteLevelBpeTokenizer> fromJsonText(std::string_view json, const std::string &fileName);
    static std::unique_ptr<ByteLevelBpeTokenizer> fromJson(const nlohmann::json &doc, const std::string &fileName);
    // True when a parsed tokenizer.json describes a byte-level BPE (model.type "BPE" and
    // a ByteLevel pre-tokenizer step), the kind fromJson() reads.
    static bool isByteLevelBpe(const nlohmann::json &doc);

    std::string kind() const override { return "byte-level BPE"; }
    const Options &options() const { return m_options; }
    size_t mergeCount() const { return m_mergeCount; }

protected:
    void encodePlain(std::string_view text, bool atStart, std::vector<int32_t> &out) const override;
    bool appendModelToken(int32_t id, bool &first, std::string &out) const override;
    int32_t modelVocabSize() const override { return static_cast<int32_t>(m_idToToken.size()); }
    std::optional<int32_t> modelTokenToId(std::string_view token) const override;
    std::string modelIdToToken(int32_t id) const override;
    bool modelIsSpecial(int32_t) const override { return false; }

private:
    struct Merge {
        int32_t rank;
        int32_t result;
    };

    // The ids of one pre-tokenized piece (byte-level spelling), through the cache.
    void encodeWord(const std::string &word, std::vector<int32_t> &out) const;
    std::vector<int32_t> bpe(const std::string &word) const;
    const Merge *findMerge(int32_t left, int32_t right) const;

    Options m_options;
    std::vector<std::unique_ptr<RegexSplitter>> m_splitters; // one per Split step (or null), and GPT-2's
    std::unique_ptr<RegexSplitter> m_gpt2;
    StringMap<int32_t> m_vocab;
    std::vector<std::string> m_idToToken; // "" in holes
    std::vector<std::string> m_idBytes;   // the bytes each token stands for
    std::vector<bool> m_hasId;
    std::array<int32_t, 256> m_byteId{};  // the id of each byte's character, -1 if none
    int32_t m_unkId = -1;
    std::unordered_map<uint64_t, Merge> m_merges; // key: left id << 32 | right id
    size_t m_mergeCount = 0;

    // word → ids; bounded, cleared when full.
    mutable std::shared_mutex m_cacheMutex;
    mutable std::unordered_map<std::string, std::vector<int32_t>> m_cache;
};

} // namespace rwb::tokenizer
