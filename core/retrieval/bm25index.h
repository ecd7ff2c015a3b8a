#pragma once

#include "retrieval/corpus.h"
#include "retrieval/retriever.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::retrieval {

class IndexFile;

// A BM25 index of a corpus in one SQLite file, searched with FTS5.
//
// The file ("index.sqlite") holds:
//   meta(key, value)          format = rwb-retrieval-index, version = 1,
//                             tokenizer = trigram | bigram, passages = N
//   passages(seq, id, title, text, meta)   the corpus as read, seq = 1 … N in file order
//   passages_fts(title, text) contentless FTS5 table, rowid = seq
//   embedders, vectors        optional, written by DenseRetriever::save
//
// Tokenizers (chosen when building, recorded in meta). Both see the passage's title
// and text after text::normalize (NFKC, white space removed) and ASCII A–Z lower-cased:
// - trigram: FTS5's own trigram tokenizer (case_sensitive 1, since the text is already
//   folded): every run of 3 consecutive code points is a token, punctuation included. A
//   query becomes its distinct trigrams, each quoted, OR-ed ("不法行" OR "法行為"). A
//   query shorter than 3 code points has no trigram and finds nothing.
// - bigram: every 2 consecutive code points that are both letters, digits, marks or
//   private-use characters (Unicode L*, N*, M*, Co: a bigram with punctuation, a symbol
//   or a control character is dropped) is written out as a space-separated word and
//   indexed with FTS5's `ascii` tokenizer. That tokenizer treats every non-ASCII code
//   point as part of a word and only ASCII non-alphanumerics as separators, so FTS5's
//   tokens are exactly these bigrams (unicode61 would re-split them by its own
//   categories and strip diacritics). A query becomes its distinct bigrams, OR-ed.
// Duplicate n-grams in a query count once: FTS5 sums bm25 over the query's phrases, so
// "東京東京" would otherwise weigh 東京 twice; the usual BM25 ignores query term
// frequency, and so does this.
//
// Score (FTS5's bm25(), SQLite 3.40 ext/fts5/fts5_aux.c; we report score = −bm25()):
//   score(D, Q) = Σ_{q ∈ Q} IDF(q) · f(q, D) · (k1 + 1) / (f(q, D) + k1 · (1 − b + b · |D| / avgdl))
//   k1 = 1.2, b = 0.75
//   IDF(q)  = ln((N − n(q) + 0.5) / (n(q) + 0.5)), and 1e-6 where that is <= 0, i.e.
//             for an n-gram in at least half of the passages (n(q) >= N/2)
//   N       = passages; n(q) = passages with q in title or text
//   f(q, D) = titleWeight · (occurrences of q in the title) + 1 · (occurrences in the text)
//   |D|     = n-grams of the title + n-grams of the text (unweighted); avgdl = mean of |D|
// The title weight only scales f; the default 1.0 makes a passage's title count like
// text. The sum runs over the query's distinct n-grams; a passage that contains none of
// them is not a hit.
//
// Threads: the connection is opened serialized and every search() prepares its own
// statement, so search() may run on several threads at once. setTitleWeight() must not
// race with search(). Failures: opening a file that is not such an index throws
// data::InputException naming the file; SQLite failures later throw std::runtime_error
// "<file>: <context>: <message>".
class Bm25Index : public Retriever {
public:
    enum class Tokenizer { Trigram, Bigram };

    // The value of meta.format, and the newest meta.version this code reads.
    static constexpr const char *kFormat = "rwb-retrieval-index";
    static constexpr int kFormatVersion = 1;
    // FTS5's bm25 constants (fixed in SQLite; here for the documentation and tests).
    static constexpr double kK1 = 1.2;
    static constexpr double kB = 0.75;
    // The floor FTS5 puts under a non-positive IDF.
    static constexpr double kMinIdf = 1e-6;

    struct BuildOptions {
        Tokenizer tokenizer = Tokenizer::Bigram; // the better of the two on Japanese (docs/results.md)
        // Called with the finished PATH.part (closed, committed) before the rename, to
        // add more to the same file (DenseRetriever::save). If it throws, nothing is renamed.
        std::function<void(const std::string &partPath)> extend;
        // Called on the building thread every few hundred passages with (done, total);
        // returning false cancels the build (build() then returns false).
        std::function<bool(size_t done, size_t total)> progress;
    };

    // Builds an index of `corpus` at `path`: writes PATH.part in one transaction, runs
    // options.extend, then renames it over `path`. An existing file at `path` is replaced
    // only when the new one is complete; after a failure or a cancel it is untouched and
    // PATH.part is removed. Returns false when cancelled. Throws data::InputException
    // when PATH.part cannot be created, std::invalid_argument for an empty corpus,
    // std::runtime_error for SQLite failures (disk full).
    static bool build(const Corpus &corpus, const std::string &path, const BuildOptions &options);

    // Opens an index read-only. Throws data::InputException naming the file when it
    // cannot be opened, is not a retrieval index, or comes from a newer version.
    explicit Bm25Index(const std::string &path);
    ~Bm25Index() override;

    std::string name() const override { return "bm25"; }
    // Hits with score = −bm25() (> 0), best first; ties by passage order.
    std::vector<Hit> search(const std::string &query, int k) const override;

    // The weight of a title occurrence in f(q, D) (>= 0; default 1). Throws
    // std::invalid_argument for a negative or non-finite weight.
    void setTitleWeight(double weight);
    double titleWeight() const { return m_titleWeight; }

    const std::string &path() const { return m_path; }
    Tokenizer tokenizer() const { return m_tokenizer; }
    size_t passageCount() const { return m_passages; }
    // The passages stored in the index, in corpus order.
    Corpus passages() const;

    // "trigram" / "bigram", and back (nullopt for anything else).
    static std::string tokenizerName(Tokenizer tokenizer);
    static std::optional<Tokenizer> parseTokenizer(std::string_view name);
    // The distinct n-grams of `text` under `tokenizer`, in order of first occurrence:
    // what a query searches for.
    static std::vector<std::string> queryTerms(std::string_view text, Tokenizer tokenizer);
    // What is written into an FTS5 column for `text` (normalized text for trigram,
    // space-separated bigrams, repeats kept, for bigram).
    static std::string indexedText(std::string_view text, Tokenizer tokenizer);

private:
    std::string m_path;
    std::unique_ptr<IndexFile> m_db;
    Tokenizer m_tokenizer = Tokenizer::Trigram;
    size_t m_passages = 0;
    double m_titleWeight = 1.0;
};

} // namespace rwb::retrieval
