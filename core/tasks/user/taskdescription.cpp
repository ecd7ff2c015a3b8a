#include "tasks/user/taskdescription.h"

#include "data/jsonl.h"
#include "text/regex.h"
#include "reward/library/library.h"
#include "reward/registry.h"
#include "reward/reward.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <initializer_list>

namespace rwb::task {

namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string &source, const std::string &field, const std::string &what)
{
    throw data::InputException({source, 0, field + ": " + what});
}

void onlyKeys(const json &o, const std::string &source, const std::string &prefix,
              std::initializer_list<const char *> keys)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (std::none_of(keys.begin(), keys.end(), [&](const char *k) { return it.key() == k; })) {
            std::string allowed;
            for (const char *k : keys)
                allowed += (allowed.empty() ? "" : ", ") + std::string(k);
            fail(source, prefix + it.key(), "unknown key (allowed: " + allowed + ")");
        }
    }
}

std::string text(const json &o, const char *key, const std::string &source, const std::string &prefix,
                 const std::string &fallback = {})
{
    const auto it = o.find(key);
    if (it == o.end())
        return fallback;
    if (!it->is_string())
        fail(source, prefix + key, std::string("must be a string, found ") + it->type_name());
    return it->get<std::string>();
}

bool isTaskName(const std::string &name)
{
    if (name.empty() || name.size() > 64 || !(name[0] >= 'a' && name[0] <= 'z'))
        return false;
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

const char *shapeName(RecordShape s)
{
    switch (s) {
    case RecordShape::Trl:
        return "trl";
    case RecordShape::Verl:
        return "verl";
    case RecordShape::OpenRlhf:
        return "openrlhf";
    }
    return "trl";
}

const char *extractorName(AnswerExtractor::Kind k)
{
    switch (k) {
    case AnswerExtractor::Kind::Whole:
        return "whole";
    case AnswerExtractor::Kind::Boxed:
        return "boxed";
    case AnswerExtractor::Kind::Tag:
        return "tag";
    case AnswerExtractor::Kind::Regex:
        return "regex";
    case AnswerExtractor::Kind::JsonField:
        return "json_field";
    }
    return "whole";
}

} // namespace

TaskDescription parseTaskDescription(const std::string &text_, const std::string &source, const std::string &baseDir)
{
    json j;
    try {
        j = util::parseJson(text_);
    } catch (const json::parse_error &e) {
        // The line and column of the error, as a reward config's are given.
        size_t line = 1, col = 1;
        for (size_t i = 0; i + 1 < e.byte && i < text_.size(); ++i) {
            if (text_[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        throw data::InputException({source, line, "column " + std::to_string(col) + ": not valid JSON"});
    }
    if (!j.is_object())
        fail(source, "(top level)", std::string("a task description is a JSON object, found ") + j.type_name());
    onlyKeys(j, source, "",
             {"name", "description", "records", "prompt", "reference", "id", "system", "sft_target", "answer",
              "metrics", "failures", "base_dir"});
    TaskDescription d;
    d.name = text(j, "name", source, "");
    if (d.name.empty())
        fail(source, "name", "missing: the task's name, lower-case words joined by \"_\" (\"invoice_total\")");
    if (!isTaskName(d.name))
        fail(source, "name", "\"" + d.name + "\" is not lower-case letters, digits and \"_\" starting with a letter");
    d.description = text(j, "description", source, "");
    const std::string records = text(j, "records", source, "", "auto");
    if (records == "auto") {
        d.recordsAuto = true;
    } else {
        d.recordsAuto = false;
        if (records == "trl")
            d.records = RecordShape::Trl;
        else if (records == "verl")
            d.records = RecordShape::Verl;
        else if (records == "openrlhf")
            d.records = RecordShape::OpenRlhf;
        else
            fail(source, "records", "\"" + records + "\" is not a record shape (allowed: auto, trl, verl, openrlhf)");
    }
    d.prompt = text(j, "prompt", source, "");
    d.reference = text(j, "reference", source, "");
    d.id = text(j, "id", source, "");
    d.system = text(j, "system", source, "");
    d.sftTarget = text(j, "sft_target", source, "");
    d.baseDir = text(j, "base_dir", source, "", baseDir);
    if (d.baseDir.empty())
        d.baseDir = std::filesystem::current_path().string();
    d.baseDir = std::filesystem::absolute(d.baseDir).lexically_normal().string();

    if (auto a = j.find("answer"); a != j.end()) {
        if (a->is_string()) {
            json o = {{"extract", *a}};
            *a = o;
        }
        if (!a->is_object())
            fail(source, "answer", std::string("must be an object {\"extract\": …}, found ") + a->type_name());
        onlyKeys(*a, source, "answer.", {"extract", "tag", "pattern", "group", "field"});
        const std::string kind = text(*a, "extract", source, "answer.", "whole");
        if (kind == "whole") {
            d.answer.kind = AnswerExtractor::Kind::Whole;
        } else if (kind == "boxed") {
            d.answer.kind = AnswerExtractor::Kind::Boxed;
        } else if (kind == "tag") {
            d.answer.kind = AnswerExtractor::Kind::Tag;
            d.answer.tag = text(*a, "tag", source, "answer.", "answer");
            if (d.answer.tag.empty() || d.answer.tag.find_first_of("<>/ \t\n") != std::string::npos)
                fail(source, "answer.tag", "\"" + d.answer.tag + "\" is not a tag name (\"answer\" for <answer>…</answer>)");
        } else if (kind == "regex") {
            d.answer.kind = AnswerExtractor::Kind::Regex;
            d.answer.pattern = text(*a, "pattern", source, "answer.");
            if (d.answer.pattern.empty())
                fail(source, "answer.pattern", "missing: the regular expression whose last match is the answer");
            if (auto g = a->find("group"); g != a->end()) {
                if (!g->is_number_integer() || g->get<int>() < 0 || g->get<int>() > 99)
                    fail(source, "answer.group", "must be a whole number from 0 to 99");
                d.answer.group = g->get<int>();
            } else {
                d.answer.group = 0;
            }
            // Python's syntax, as the regex component reads it (text/regex.h).
            try {
                const text::Regex re(d.answer.pattern);
                if (d.answer.group > re.groupCount())
                    fail(source, "answer.group", std::to_string(d.answer.group) + " is more than the pattern's " +
                                                     std::to_string(re.groupCount()) + " group(s)");
            } catch (const std::invalid_argument &e) {
                fail(source, "answer.pattern", e.what());
            }
        } else if (kind == "json_field") {
            d.answer.kind = AnswerExtractor::Kind::JsonField;
            d.answer.field = text(*a, "field", source, "answer.");
            if (d.answer.field.empty())
                fail(source, "answer.field", "missing: the field of the reply's JSON object that is the answer");
        } else {
            fail(source, "answer.extract", "\"" + kind + "\" is not an extractor (allowed: whole, boxed, tag, regex, json_field)");
        }
    }

    if (auto m = j.find("metrics"); m != j.end()) {
        if (!m->is_array() || m->empty())
            fail(source, "metrics", "must be a non-empty list of {\"reward\": a library component, \"name\": …}");
        for (size_t i = 0; i < m->size(); ++i) {
            const std::string field = "metrics[" + std::to_string(i) + "]";
            json o = (*m)[i];
            if (o.is_string())
                o = json{{"reward", o}};
            if (!o.is_object())
                fail(source, field, std::string("must be an object {\"reward\", \"name\", \"options\"}, found ") + o.type_name());
            onlyKeys(o, source, field + ".", {"reward", "name", "options"});
            TaskMetric metric;
            metric.reward = text(o, "reward", source, field + ".");
            if (metric.reward.empty())
                fail(source, field + ".reward", "missing: a component of the reward library (rwb reward list)");
            metric.name = text(o, "name", source, field + ".", metric.reward);
            if (!isTaskName(metric.name))
                fail(source, field + ".name", "\"" + metric.name + "\" is not lower-case letters, digits and \"_\"");
            if (metric.name == "no_answer" || metric.name == "right")
                fail(source, field + ".name", "\"" + metric.name + "\" names a failure category; call the metric otherwise");
            if (auto opt = o.find("options"); opt != o.end()) {
                if (!opt->is_object())
                    fail(source, field + ".options", std::string("must be an object, found ") + opt->type_name());
                metric.options = opt->dump();
            }
            static const reward::Registry library = [] {
                reward::Registry r;
                reward::addLibraryRewards(r);
                return r;
            }();
            const reward::Registry::Entry *e = library.find(metric.reward);
            if (!e)
                fail(source, field + ".reward", "unknown reward \"" + metric.reward + "\" (allowed: " +
                                                    reward::joinNames(library.names("")) + ")");
            reward::RewardOptions options;
            options.componentOptions = metric.options;
            options.baseDir = d.baseDir;
            options.label = metric.name;
            try {
                (void)e->make(options);
            } catch (const std::invalid_argument &ex) {
                fail(source, field, ex.what());
            }
            for (const TaskMetric &other : d.metrics)
                if (other.name == metric.name)
                    fail(source, field + ".name", "\"" + metric.name + "\" is listed twice; give one a \"name\" of its own");
            d.metrics.push_back(std::move(metric));
        }
    } else {
        d.metrics.push_back({"exact_match", "exact_match", ""});
    }

    if (auto f = j.find("failures"); f != j.end()) {
        if (!f->is_array())
            fail(source, "failures", std::string("must be a list, found ") + f->type_name());
        for (size_t i = 0; i < f->size(); ++i) {
            const std::string field = "failures[" + std::to_string(i) + "]";
            const json &o = (*f)[i];
            if (!o.is_object())
                fail(source, field, std::string("must be an object {\"key\", \"name\", \"when\"}, found ") + o.type_name());
            onlyKeys(o, source, field + ".", {"key", "name", "explanation", "when", "below"});
            TaskFailure failure;
            failure.key = text(o, "key", source, field + ".");
            if (!isTaskName(failure.key) || failure.key == "right")
                fail(source, field + ".key", "\"" + failure.key + "\" must be lower-case letters, digits and \"_\", not \"right\"");
            failure.name = text(o, "name", source, field + ".", failure.key);
            failure.explanation = text(o, "explanation", source, field + ".");
            failure.when = text(o, "when", source, field + ".");
            if (failure.when != "no_answer" &&
                std::none_of(d.metrics.begin(), d.metrics.end(), [&](const TaskMetric &m) { return m.name == failure.when; })) {
                std::string names = "no_answer";
                for (const TaskMetric &m : d.metrics)
                    names += ", " + m.name;
                fail(source, field + ".when", "\"" + failure.when + "\" is no metric of this task (allowed: " + names + ")");
            }
            if (auto b = o.find("below"); b != o.end()) {
                if (!b->is_number() || b->get<double>() <= 0.0 || b->get<double>() > 1.0)
                    fail(source, field + ".below", "must be a number in (0, 1]");
                failure.below = b->get<double>();
            }
            for (const TaskFailure &other : d.failures)
                if (other.key == failure.key)
                    fail(source, field + ".key", "\"" + failure.key + "\" is listed twice");
            d.failures.push_back(std::move(failure));
        }
    } else {
        // One category per metric, in order: the first metric a prediction fails names it.
        if (d.answer.kind != AnswerExtractor::Kind::Whole)
            d.failures.push_back({"no_answer", "no answer", "The extractor found no answer in the reply.", "no_answer", 1.0});
        for (const TaskMetric &m : d.metrics)
            d.failures.push_back({m.name == "no_answer" ? "failed_no_answer" : m.name, m.name + " below 1",
                                  "The metric " + m.name + " gave less than 1.", m.name, 1.0});
    }
    return d;
}

std::string TaskDescription::toJson() const
{
    nlohmann::ordered_json j;
    j["name"] = name;
    if (!description.empty())
        j["description"] = description;
    j["records"] = recordsAuto ? "auto" : shapeName(records);
    if (!prompt.empty())
        j["prompt"] = prompt;
    if (!reference.empty())
        j["reference"] = reference;
    if (!id.empty())
        j["id"] = id;
    if (!system.empty())
        j["system"] = system;
    if (!sftTarget.empty())
        j["sft_target"] = sftTarget;
    nlohmann::ordered_json a;
    a["extract"] = extractorName(answer.kind);
    if (answer.kind == AnswerExtractor::Kind::Tag)
        a["tag"] = answer.tag;
    if (answer.kind == AnswerExtractor::Kind::Regex) {
        a["pattern"] = answer.pattern;
        a["group"] = answer.group;
    }
    if (answer.kind == AnswerExtractor::Kind::JsonField)
        a["field"] = answer.field;
    j["answer"] = a;
    j["metrics"] = nlohmann::ordered_json::array();
    for (const TaskMetric &m : metrics) {
        nlohmann::ordered_json o;
        o["reward"] = m.reward;
        o["name"] = m.name;
        if (!m.options.empty())
            o["options"] = nlohmann::ordered_json::parse(m.options);
        j["metrics"].push_back(o);
    }
    j["failures"] = nlohmann::ordered_json::array();
    for (const TaskFailure &f : failures) {
        nlohmann::ordered_json o;
        o["key"] = f.key;
        o["name"] = f.name;
        if (!f.explanation.empty())
            o["explanation"] = f.explanation;
        o["when"] = f.when;
        if (f.below != 1.0)
            o["below"] = f.below;
        j["failures"].push_back(o);
    }
    j["base_dir"] = baseDir;
    return j.dump(2);
}

} // namespace rwb::task
