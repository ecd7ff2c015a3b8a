#pragma once

#include "embed/embedder.h"
#include "embed/hfembedder.h"
#include "embed/httpembedder.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::embed {

// What makeEmbedder may need besides the spec. Copied from as needed; not kept.
struct EmbedderContext {
    // "lexical": the texts to fit on (the task's corpus: passages, references).
    std::vector<std::string> corpusTexts;
    // "lexical": a fitted state (LexicalEmbedder::state(), as an index file stores it);
    // when not empty it is loaded and corpusTexts is not used.
    std::string lexicalState;
    // "http:": the options, a JSON object as text (empty: every default), e.g.
    //   {"model": "BAAI/bge-m3", "api_key_env": "EMBED_API_KEY", "batch": 32,
    //    "timeout_s": 60, "deadline_s": 300, "retries": 4, "backoff_s": 1,
    //    "dimensions": 0, "encoding_format": "float", "query_prefix": "query: ",
    //    "document_prefix": "passage: ", "ca_cert": "/etc/ssl/private-ca.pem"}
    // Every key is optional; any other key is an error ("api_key" too: a key belongs in
    // an environment variable, named by api_key_env).
    // "hf:": the options, a JSON object as text (empty: every default), e.g.
    //   {"batch": 32, "max_length": 256, "pooling": "mean", "query_prefix": "query: ",
    //    "document_prefix": "passage: ", "threads": 2}
    // (HfEmbedderOptions). "lexical" takes no options.
    std::string options;
    // Where the spec and options were written, for messages ("reward.json: semantic").
    std::string source;
    // "hf:": the folder a relative DIR is found in (a reward config's folder); empty: the
    // working directory.
    std::string baseDir;
};

// The embedder a reward config or a command line names:
//   "lexical"                        LexicalEmbedder, fitted on ctx.corpusTexts (or
//                                    loaded from ctx.lexicalState)
//   "http:http://host:port[/path]"   HttpEmbedder (also https://), with ctx.options;
//                                    the URL rules are at HttpEmbedderOptions::url
//   "hf:DIR"                         HfEmbedder: a Hugging Face model folder (BERT,
//                                    RoBERTa, XLM-R encoders, Qwen3-Embedding) run by
//                                    our engine, with ctx.options; DIR relative to
//                                    ctx.baseDir
// Contacts no server; "hf:" loads the model (seconds for a large one). Throws
// std::invalid_argument, starting with ctx.source when it is set, for an unknown spec
// (listing the forms above), "hf:" without a folder, or bad options (naming the key and
// what it allows); data::InputException for a lexicalState that is not one and for an
// hf: folder that cannot be run (naming the file and field: HfEmbedder).
std::unique_ptr<Embedder> makeEmbedder(const std::string &spec, const EmbedderContext &ctx);

// ctx.options of an "http:" spec as HttpEmbedderOptions for `url`; the same checks and
// exceptions as makeEmbedder (the URL itself is checked by HttpEmbedder).
HttpEmbedderOptions parseHttpEmbedderOptions(const std::string &url, std::string_view optionsJson,
                                             const std::string &source = {});

// ctx.options of an "hf:" spec as HfEmbedderOptions; the same checks and exceptions as
// makeEmbedder (values are checked again by HfEmbedder against the folder).
HfEmbedderOptions parseHfEmbedderOptions(std::string_view optionsJson, const std::string &source = {});

} // namespace rwb::embed
