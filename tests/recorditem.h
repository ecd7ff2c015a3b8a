#pragma once

// A test's example of a user's task (task::RecordExample): its record's fields (a
// column by its top-level name), its prompt as JSON, its gold. For the tests of the
// components that read records (tst_pythonreward, tst_remotereward).

#include "task/task.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace {

using json = nlohmann::json;

// An example of a user's task: its record's fields, its prompt, its gold.
class RecordItem : public rwb::task::Example, public rwb::task::RecordExample {
public:
    RecordItem(std::string id, json record, json prompt, std::string gold = {})
        : m_id(std::move(id))
        , m_record(record.dump())
        , m_prompt(std::move(prompt))
        , m_gold(std::move(gold))
    {
    }
    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_gold; }
    std::string metaJson() const override { return "{}"; }
    const std::string &recordJson() const override { return m_record; }
    std::optional<std::string> column(std::string_view path) const override
    {
        const json r = json::parse(m_record);
        if (!r.contains(std::string(path)))
            return std::nullopt;
        const json &v = r[std::string(path)];
        return v.is_string() ? v.get<std::string>() : v.dump();
    }
    std::string promptJson() const override { return m_prompt.dump(); }

private:
    std::string m_id;
    std::string m_record;
    json m_prompt;
    std::string m_gold;
};

} // namespace
