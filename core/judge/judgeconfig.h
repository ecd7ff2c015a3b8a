#pragma once

// A reward config's "judge" object (docs/judges.md), for example
//   "judge": {"backend": "http", "url": "http://127.0.0.1:8000/v1", "model": "judge",
//             "api_key_env": "JUDGE_API_KEY", "temperature": 0, "max_tokens": 512,
//             "response_format": "json_schema", "concurrency": 4,
//             "cache": "judge_cache.sqlite", "price": {"prompt_per_million": 0.15,
//             "completion_per_million": 0.6}}
// Every key is optional except the backend's own (url for http, folder for local).

#include "judge/judgeclient.h"

#include <string>

namespace rwb::judge {

// Reads the object's JSON text. Paths (cache, folder, ca_cert) are relative to baseDir.
// Throws data::InputException naming `source` and the field ("judge.timeout") and what is
// allowed: unknown keys, wrong types, values out of range.
JudgeOptions parseJudgeOptions(const std::string &json, const std::string &source, const std::string &baseDir);

// The object's JSON text with its paths made absolute against baseDir (what a run store
// records, as reward::withAbsolutePaths does for the rest of a config).
std::string judgeWithAbsolutePaths(const std::string &json, const std::string &baseDir);

} // namespace rwb::judge
