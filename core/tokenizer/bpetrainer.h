#pragma once

#include "tokenizer/addedtokenmatcher.h"
#include "tokenizer/regexsplitter.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rwb::tokenizer {

class ByteLevelBpeTokenizer;

struct BpeTrainerOptions {
    // Ids of the trained tokenizer in all: the 256 byte tokens, the merges, the added tokens.
    int32_t vocabSize = 4096;
    // Matched in the text before anything else, never merged, given the ids after the BPE
    // vocabulary. "<|…|>" markers and the pad token are special (decode can skip them);
    // tags such as <thinking> are not: they are text the model writes and rewards read.
    std::vector<std::string> addedTokens = defaultAddedTokens();
    // A pair seen fewer times than this is never merged: training may stop short of
    // vocabSize on a small corpus (the added tokens then follow the shorter vocabulary).
    int64_t minPairCount = 2;
    // Written to tokenizer_config.json as "rwb_prompt_format": "plain" or "chatml".
    std::string promptFormat = "plain";

    // What the demo needs: <|endoftext|>, <|im_start|>, <|im_end|>, <thinking>,
    // </thinking>, <answer>, </answer>, <pad>.
    static std::vector<std::string> defaultAddedTokens();
};

// Where train() is; handed to the progress callback.
struct BpeTrainingProgress {
    size_t merges = 0;     // tokens learned so far (merges that spelled a new token)
    size_t target = 0;     // tokens wanted: vocabSize - 256 - added tokens
    int64_t lastCount = 0; // how often the last merged pair occurred
};

// Trains a byte-level BPE the way Qwen's tokenizer works, and writes it as a Hugging Face
// tokenizer.json (model "BPE", merges as [a, b] pairs, NFC, Split(Qwen regex, Isolated) +
// ByteLevel) with a tokenizer_config.json beside it.
//
// Text is pre-tokenized exactly as ByteLevelBpeTokenizer::encode does (added tokens cut
// out, NFC, the Qwen regex), the pieces counted; then, starting from the 256 bytes (id =
// byte value), the most frequent adjacent pair is merged, again and again. Ties go to
// the pair of smaller ids (left first, then right), so training is deterministic. Pair
// counts are kept up to date incrementally: a merge only revisits the words that hold it.
//
// Threads: one object is used by one thread at a time.
class BpeTrainer {
public:
    // Called on the thread that runs train(), about every 1 % of the merges and at the
    // end. Return false to cancel: train() then stops and keeps the merges made so far.
    using ProgressCallback = std::function<bool(const BpeTrainingProgress &)>;

    // Throws std::invalid_argument for a vocabSize below 256 + the added tokens, an empty
    // or repeated added token, or a prompt format other than "plain" / "chatml".
    explicit BpeTrainer(BpeTrainerOptions options = {});
    ~BpeTrainer();

    // Counts the pre-tokenized words of `text`; may be called any number of times
    // before train(). Ill-formed UTF-8 becomes U+FFFD.
    void addText(std::string_view text);

    // Learns the merges. Returns false when the callback cancelled. May be called once.
    bool train(const ProgressCallback &progress = {});

    // By id: the byte-level spelling of each token ("Ġthe"), without the added tokens.
    const std::vector<std::string> &vocab() const { return m_vocab; }
    // In rank order.
    const std::vector<std::pair<std::string, std::string>> &merges() const { return m_merges; }
    // The added tokens with their ids (after vocab()).
    std::vector<AddedToken> addedTokens() const;
    uint64_t wordCount() const { return m_totalWords; }
    size_t uniqueWordCount() const { return m_wordCounts.size(); }
    const BpeTrainerOptions &options() const { return m_options; }

    // The files' text.
    std::string tokenizerJson() const;
    std::string tokenizerConfigJson() const;
    // Writes DIR/tokenizer.json and DIR/tokenizer_config.json, creating DIR. Throws
    // data::InputException naming the file that cannot be written.
    void save(const std::string &dir) const;
    // The trained tokenizer, as loadTokenizer() would read it back.
    std::unique_ptr<ByteLevelBpeTokenizer> tokenizer() const;

private:
    BpeTrainerOptions m_options;
    RegexSplitter m_splitter;
    AddedTokenMatcher m_addedMatcher;
    std::unordered_map<std::string, uint64_t> m_wordCounts; // raw bytes of a piece → count
    uint64_t m_totalWords = 0;
    std::vector<std::string> m_vocab;
    std::vector<std::pair<std::string, std::string>> m_merges;
    bool m_trained = false;
};

} // namespace rwb::tokenizer
