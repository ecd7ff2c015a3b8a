#include "tasks/user/taskdraft.h"

#include "data/jsonl.h"
#include "text/utf8.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <fstream>

namespace rwb::task {

namespace {

using json = nlohmann::json;

bool isNumber(std::string_view s)
{
    s = text::trimmedAscii(s);
    if (s.empty())
        return false;
    size_t digits = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (std::isdigit(static_cast<unsigned char>(c)))
            ++digits;
        else if (!(c == '-' || c == '+' || c == '.' || c == ',' || c == 'e' || c == 'E'))
            return false;
    }
    return digits > 0;
}

std::string jsonString(const std::string &s)
{
    return json(s).dump();
}

} // namespace

TaskDraft draftTaskDescription(const std::string &path, const std::string &name)
{
    std::ifstream in(path);
    if (!in)
        throw data::InputException({path, 0, "cannot be read"});
    std::vector<json> records;
    std::string line;
    size_t lineNo = 0;
    while (records.size() < 50 && std::getline(in, line)) {
        ++lineNo;
        if (text::trimmedAscii(line).empty())
            continue;
        json j = util::parseJsonOrDiscarded(line);
        if (!j.is_object())
            throw data::InputException({path, lineNo, "not a JSON object: a task's records are JSON lines (JSONL)"});
        records.push_back(std::move(j));
    }
    if (records.empty())
        throw data::InputException({path, 0, "no record: a task's records are JSON lines (JSONL)"});
    const json &first = records.front();

    TaskDraft draft;
    std::string records_ = "trl";
    std::string prompt = "prompt";
    std::string reference;
    bool conversational = false;
    if (first.contains("reward_model")) {
        records_ = "verl";
        reference = "reward_model.ground_truth";
        draft.notes.push_back({"records.verl", {}, "records: verl's (a \"reward_model\" column); the reference is reward_model.ground_truth"});
    } else if (first.contains("prompt")) {
        // (Not "completion": a line's completion is a reply to score, not the reference.)
        for (const char *c : {"solution", "answer", "ground_truth", "reference", "label"})
            if (first.contains(c)) {
                reference = c;
                break;
            }
        draft.notes.push_back({"records.trl", {}, "records: TRL's (a \"prompt\" column)"});
    } else if (first.contains("input")) {
        records_ = "openrlhf";
        prompt = "input";
        reference = first.contains("label") ? "label" : "";
        draft.notes.push_back({"records.openrlhf", {}, "records: OpenRLHF's (an \"input\" column)"});
    } else {
        // No known prompt column: the first text column.
        prompt.clear();
        for (auto it = first.begin(); it != first.end(); ++it)
            if (it->is_string()) {
                prompt = it.key();
                break;
            }
        draft.notes.push_back({"records.prompt_guessed", {prompt},
                               "records: no prompt column TRL, verl or OpenRLHF would read; guessed \"" + prompt +
                                   "\" (the first text column): check it"});
    }
    if (const auto p = first.find(prompt); p != first.end() && p->is_array())
        conversational = true;
    if (reference.empty()) {
        for (auto it = first.begin(); it != first.end(); ++it)
            if (it.key() != prompt && (it->is_string() || it->is_number())) {
                reference = it.key();
                break;
            }
        draft.notes.push_back({"reference.guessed", {reference}, "reference: guessed \"" + reference + "\"; check it"});
    }

    // What the references look like decides the extractor and the metric.
    size_t numeric = 0;
    size_t objects = 0;
    size_t n = 0;
    for (const json &r : records) {
        const json *v = &r;
        for (size_t start = 0; v && start <= reference.size();) {
            const size_t dot = reference.find('.', start);
            const std::string key = reference.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
            v = v->is_object() && v->contains(key) ? &(*v)[key] : nullptr;
            if (dot == std::string::npos)
                break;
            start = dot + 1;
        }
        if (!v)
            continue;
        ++n;
        if (v->is_number() || (v->is_string() && isNumber(v->get<std::string>())))
            ++numeric;
        if (v->is_object() || (v->is_string() && util::parseJsonOrDiscarded(v->get<std::string>()).is_object()))
            ++objects;
    }
    std::string extract = "whole";
    std::string metric = "exact_match";
    std::string why;
    std::string whyKey = "answer.text";
    if (n > 0 && numeric == n) {
        whyKey = "answer.numeric";
        extract = "boxed";
        metric = "numeric";
        why = "every reference is a number: the answer is the reply's last \\boxed{}, compared as a number";
    } else if (n > 0 && objects == n) {
        whyKey = "answer.json";
        extract = "whole";
        metric = "json_fields";
        why = "every reference is a JSON object: the reply's object is compared field by field";
    } else {
        why = "the references are text: the whole reply is compared with the reference (exact_match)";
    }
    draft.notes.push_back({whyKey, {}, "answer: " + why});

    std::string d;
    d += "// A task description for Reward Workbench (docs/your-task.md), guessed by `rwb task init`\n";
    d += "// from " + std::to_string(records.size()) + " record(s) of " + path + ". Check each line.\n";
    d += "{\n";
    d += "  \"name\": " + jsonString(name) + ",\n";
    d += "  \"description\": \"\",\n";
    d += "  // The record shape: trl (\"prompt\" text or messages), verl (\"prompt\" messages and\n";
    d += "  // \"reward_model\".ground_truth), openrlhf (\"input\", \"label\") or auto (decided per line).\n";
    d += "  \"records\": " + jsonString(records_) + ",\n";
    d += std::string("  // The column holding the prompt") + (conversational ? " (messages: the model's chat format renders them)" : " (text: sent as one user message)") + ".\n";
    d += "  \"prompt\": " + jsonString(prompt) + ",\n";
    d += "  // The column holding the reference answer: the gold the metrics and rewards compare with.\n";
    d += "  \"reference\": " + jsonString(reference) + ",\n";
    if (extract == "boxed") {
        d += "  \"system\": \"Think step by step, then give the final answer as \\\\boxed{...}.\",\n";
        d += "  // What SFT trains on: a column, or text with {column}s filled in (the reference by default).\n";
        d += "  \"sft_target\": " + jsonString("\\boxed{{" + reference + "}}") + ",\n";
    }
    d += "  // How the answer is found in a reply: whole, boxed (the last \\boxed{}), tag (<answer>…</answer>),\n";
    d += "  // regex (the last match; \"pattern\", \"group\") or json_field (\"field\" of the reply's JSON object).\n";
    d += "  // Here: " + why + ".\n";
    d += "  \"answer\": {\"extract\": " + jsonString(extract) + "},\n";
    d += "  // Evaluation metrics: components of the reward library (rwb reward list); the first is the headline.\n";
    d += "  \"metrics\": [{\"reward\": " + jsonString(metric) + ", \"name\": \"accuracy\"}]\n";
    d += "  // Failure categories: by default \"no_answer\" (when the extractor finds none) and one per metric.\n";
    d += "}\n";
    draft.description = std::move(d);
    return draft;
}

} // namespace rwb::task
