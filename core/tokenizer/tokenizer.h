#pragma once

#include "tokenizer/addedtokenmatcher.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rwb::tokenizer {

// A token that is matched in the raw text before any normalization (a chat marker such
// as "<|im_start|>", "<think>", a model's eos). Its id may be inside the model's
// vocabulary (sentencepiece CONTROL pieces, Qwen's markers that tokenizer.json lists in
// both places) or after it.
struct AddedToken {
    int32_t id = -1;
    std::string content;
    bool special = true; // skipped by decode(…, skipSpecial = true)
    bool lstrip = false; // also swallow the white space before it
    bool rstrip = false; // … after it
    bool singleWord = false; // only matched where no word character touches it
    // Matched in the normalized text rather than the raw one, for a model that normalizes
    // before looking for added tokens (Tokenizer::normalizesFirst()); tokenizer.json's
    // "normalized", which Hugging Face defaults to !special.
    bool normalized = false;
};

// Text ↔ token ids for a language model.
//
// encode() cuts the raw text at added tokens (leftmost-longest) and hands each stretch
// between them to the model (byte-level BPE, sentencepiece) on its own. A model that
// runs a tokenizer.json normalizer as Hugging Face does (normalizesFirst()) gets it in
// two steps, as tokenizers' AddedVocabulary does: the tokens that are not "normalized"
// are cut out of the raw text, each stretch between them is normalized, the "normalized"
// tokens are cut out of that, and the rest goes to the model already normalized. It never adds a
// BOS or EOS: callers add bosId() when addsBos() says the model expects one.
//
// Threads: configure (addAddedToken, set*Id) before sharing; after that every const
// member may be called from several threads at once.
class Tokenizer {
public:
    virtual ~Tokenizer();

    // Token ids of `text`, with added tokens recognized in it. Ill-formed UTF-8 is
    // replaced by U+FFFD first. Never fails.
    std::vector<int32_t> encode(std::string_view text) const;
    // The same without looking for added tokens: "<|im_end|>" in a user's e-mail stays
    // plain text. Use it for untrusted content placed inside a prompt.
    std::vector<int32_t> encodeOrdinary(std::string_view text) const;

    // The text of `ids`. Bytes that do not form UTF-8 (a cut-off multi-byte character)
    // become U+FFFD, in one final pass over the whole text. Ids outside the vocabulary
    // also become U+FFFD. Never fails, whatever the ids.
    std::string decode(const std::vector<int32_t> &ids, bool skipSpecial = false) const;
    // The raw bytes of `ids`, possibly ill-formed UTF-8, so that a stream of pieces can be
    // joined before the final repair: decodeBytes(a + b) == decodeBytes(a) +
    // decodeBytes(b, …, /*atStart=*/false). `atStart` false keeps the leading space that
    // a sentencepiece model with a dummy prefix would otherwise drop.
    std::string decodeBytes(const std::vector<int32_t> &ids, bool skipSpecial = false, bool atStart = true) const;

    // Ids run from 0 to vocabSize() - 1 (there may be unused holes).
    int32_t vocabSize() const;
    // The id of a token given in the model's own spelling ("Ġthe", "▁the", "<0x0A>") or of
    // an added token ("<|im_end|>").
    std::optional<int32_t> tokenToId(std::string_view token) const;
    // The token's spelling; "" for an id outside the vocabulary.
    std::string idToToken(int32_t id) const;
    // True for special added tokens and the model's own control / unknown tokens.
    bool isSpecial(int32_t id) const;

    std::optional<int32_t> eosId() const { return m_eos; }
    std::optional<int32_t> padId() const { return m_pad; }
    std::optional<int32_t> bosId() const { return m_bos; }
    // Whether the model expects bosId() in front of a prompt (tokenizer_config.json's
    // add_bos_token; sentencepiece models default to true when they have a BOS).
    bool addsBos() const { return m_addsBos; }

    const std::vector<AddedToken> &addedTokens() const { return m_added; }
    // What a user should know about how this tokenizer was read, one sentence each; so far
    // added tokens whose ids leave a gap after the vocabulary, which tokenizers and
    // transformers renumber (tokenizers with a warning) while this engine keeps the file's
    // id, the embedding row the model was trained with. Empty for a plain tokenizer.
    std::vector<std::string> notes() const;
    // A short name of the model type: "byte-level BPE", "sentencepiece unigram", …
    virtual std::string kind() const = 0;

    // Configuration, before sharing. addAddedToken() throws std::invalid_argument when
    // the id is negative or already taken by another added token with different content.
    void addAddedToken(const AddedToken &token);
    void addAddedTokens(const std::vector<AddedToken> &tokens);
    void setEosId(std::optional<int32_t> id) { m_eos = id; }
    void setPadId(std::optional<int32_t> id) { m_pad = id; }
    void setBosId(std::optional<int32_t> id) { m_bos = id; }
    void setAddsBos(bool adds) { m_addsBos = adds; }

protected:
    // Appends the ids of one stretch of plain text (no added tokens in it). `atStart` is
    // true for the stretch at the very start of the text (a dummy prefix goes there).
    virtual void encodePlain(std::string_view text, bool atStart, std::vector<int32_t> &out) const = 0;
    // Appends the bytes of a model token (not an added one) to `out`. `first` is true
    // until the first token that produces text at the start of a sequence; the model
    // clears it when it writes text (a sentencepiece model drops its dummy-prefix space
    // there). Returns false for an id the model does not have.
    virtual bool appendModelToken(int32_t id, bool &first, std::string &out) const = 0;
    // Appends an added token's text (not skipped): by default as it is, `first` untouched;
    // a model whose decoder treats added tokens as tokens (WordPiece: spaces) overrides it.
    virtual void appendAddedToken(const std::string &content, bool &first, std::string &out) const;
    // True for a model whose normalizer runs before "normalized" added tokens are looked
    // for (see the class comment); encodePlain() then receives normalizeText()'s output.
    virtual bool normalizesFirst() const { return false; }
    // The model's normalizer on one raw stretch (the model repairs ill-formed UTF-8). Only
    // called when normalizesFirst(). `keepsStart` is set false when the normalized text
    // does not begin with what came from the stretch's first character (a Strip removed
    // leading spaces): the stretch's first piece then no longer counts as at the start.
    virtual std::string normalizeText(std::string_view raw, bool &keepsStart) const
    {
        keepsStart = true;
        return std::string(raw);
    }
    // The model's vocabulary, without added tokens beyond it.
    virtual int32_t modelVocabSize() const = 0;
    virtual std::optional<int32_t> modelTokenToId(std::string_view token) const = 0;
    virtual std::string modelIdToToken(int32_t id) const = 0;
    virtual bool modelIsSpecial(int32_t id) const = 0;

private:
    void rebuildMatcher();
    // One stretch between raw-text added tokens: normalized and searched for "normalized"
    // tokens when the model normalizes first (`findTokens`), then to encodePlain().
    void encodeStretch(std::string_view raw, bool atStart, bool findTokens, std::vector<int32_t> &out) const;

    std::vector<AddedToken> m_added;
    std::unordered_map<int32_t, size_t> m_addedById;
    std::unordered_map<std::string, int32_t> m_addedByContent;
    AddedTokenMatcher m_matcher;           // tokens looked for in the raw text
    AddedTokenMatcher m_normalizedMatcher; // … in the normalized text
    std::unordered_map<int32_t, std::string> m_normalizedContent; // what those are matched as, by id
    std::optional<int32_t> m_eos, m_pad, m_bos;
    bool m_addsBos = false;
};

// Reads the tokenizer of a Hugging Face model folder:
// - tokenizer.json when it holds a byte-level BPE model (Qwen2 / Qwen3, Llama 3, GPT-2,
//   the project's own trainer);
// - else tokenizer.model, a sentencepiece model (Llama 2, sarashina), read without
//   libsentencepiece;
// - else tokenizer.json of a WordPiece model (BERT, MiniLM: wordpiecetokenizer.h) or a
//   Unigram model (XLM-RoBERTa, BGE-M3, multilingual-e5: unigramjson.h);
// then tokenizer_config.json, when present, for added tokens (added_tokens_decoder,
// additional_special_tokens), eos_token / pad_token / bos_token and add_bos_token.
// Throws data::InputException naming the file and the JSON field (or the folder, when
// neither tokenizer file is there). The caller owns the result.
std::unique_ptr<Tokenizer> loadTokenizer(const std::string &modelDir);

// Copies a model folder's tokenizer files (tokenizer.json, tokenizer.model,
// tokenizer_config.json, special_tokens_map.json: those that exist) into another folder,
// so that a saved model folder loads on its own. Nothing when the folders are the same.
void copyTokenizerFiles(const std::string &fromDir, const std::string &toDir);

} // namespace rwb::tokenizer
