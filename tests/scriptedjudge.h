#pragma once

// A scripted LLM judge for the tests of the judge rewards and of the Designer's judge
// scoring: a legal question with a rubric, completions in the task's format, and a
// loopback judge that answers every request the judge rewards make as a careful grader
// would (see judgeScript), so that each expected value can be worked out by hand.
// Header-only; include it after loopbackserver.h, in one test file each.

#include "tasks/legalqa/legalquestion.h"
#include "judge/judgeclient.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace rwbtest {

inline constexpr const char *kJudgePath = "/v1/chat/completions";

inline std::string completion(const std::string &content, const json &logprobs = nullptr)
{
    json choice = {{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}, {"finish_reason", "stop"}};
    if (!logprobs.is_null())
        choice["logprobs"] = logprobs;
    return json{{"choices", json::array({choice})}, {"usage", {{"prompt_tokens", 50}, {"completion_tokens", 10}}}}
        .dump();
}

// The user message of a request.
inline std::string userText(const SeenRequest &r)
{
    return r.body["messages"].back()["content"].get<std::string>();
}

// A question whose reference says 30日以内; its rubric: Essential 5 "states 30日以内",
// Important 3 "mentions the notification", Pitfall −2 "states 14日以内".
inline rwb::data::LegalQuestion question(bool withRubric = true)
{
    rwb::data::LegalQuestion q;
    q.id = "q1";
    q.question = "届出はいつまでに必要ですか。";
    q.referenceAnswer = "30日以内に届け出なければなりません。";
    q.lawCodes = {12};
    q.facts = {{12, "deadline", "30日以内"}};
    q.retrieved = {{12, "甲法 第3条（届出）", "30日以内に届け出る。", 2.5}};
    if (withRubric)
        q.rubric = R"([{"title": "deadline", "description": "Essential Criteria: States that the deadline is 30日以内.", "weight": 5},
                       {"title": "notice", "description": "Important Criteria: Mentions that a notification (届出) is needed.", "weight": 3},
                       {"title": "wrong", "description": "Pitfall Criteria: States that the deadline is 14日以内.", "weight": -2}])";
    return q;
}

inline std::string output(const std::string &answer)
{
    return "<reasoning>r</reasoning>\n<answer>" + answer + "</answer>\n<citation><law_code>12</law_code></citation>";
}

// The text of a <tag>…</tag> section of a judge prompt's user message ("" when none).
inline std::string section(const std::string &user, const std::string &tag)
{
    const size_t open = user.find("<" + tag + ">\n");
    const size_t close = user.find("\n</" + tag + ">");
    return open == std::string::npos || close == std::string::npos
               ? std::string()
               : user.substr(open + tag.size() + 3, close - open - tag.size() - 3);
}

// The scripted judge. It reads the answer between <response> tags (or the student's
// answer tag of the legal prompt) and answers as a careful grader would:
//   legal: coverage full when the answer says 30日以内, none otherwise; contradiction
//          when it says 14日以内.
//   item:  met when the criterion's value (30日以内 / 届出 / 14日以内) is in the answer.
//   all items: the same, in one reply.
//   rating: 9 when the answer says 30日以内, 2 otherwise.
// An answer containing "FAIL" gets HTTP 500; one containing "GARBLE" a reply with no JSON.
inline void judgeScript(int, const SeenRequest &req, httplib::Response &res)
{
    const std::string user = userText(req);
    const std::string system = req.body["messages"].front()["content"].get<std::string>();
    const auto sectionOf = [&](const std::string &tag) { return section(user, tag); };
    // The text under judgement.
    std::string answer = sectionOf("response");
    if (answer.empty())
        answer = sectionOf("student_answer");
    const auto says = [&](const std::string &s) { return answer.find(s) != std::string::npos; };
    if (says("FAIL")) {
        res.status = 500;
        return;
    }
    if (says("GARBLE")) {
        res.set_content(completion("I think it is fine."), "application/json");
        return;
    }
    const json schemaName = req.body.contains("response_format")
                                ? req.body["response_format"]["json_schema"]["name"]
                                : json(nullptr);
    const std::string kind = schemaName.is_string() ? schemaName.get<std::string>() : "";
    json reply;
    if (kind == "legal_coverage_contradiction") {
        reply = {{"point_thought", "t"},
                 {"student_points", json::array({"p"})},
                 {"reference_points", json::array({"r"})},
                 {"coverage", {{"thought", "t"}, {"score", says("30日以内") ? "full-coverage" : "no-coverage"}}},
                 {"contradiction",
                  {{"thought", "t"}, {"score", says("14日以内") ? "contradiction" : "no-contradiction"}}}};
    } else if (kind == "rubric_item_verdict") {
        const std::string item = sectionOf("rubric_item");
        const std::string value = item.find("30日以内") != std::string::npos   ? "30日以内"
                                  : item.find("14日以内") != std::string::npos ? "14日以内"
                                                                              : "届出";
        reply = {{"explanation", "e"}, {"criteria_met", says(value)}};
    } else if (kind == "rubric_verdicts") {
        reply = {{"items", json::array({{{"id", 1}, {"explanation", "e"}, {"met", says("30日以内")}},
                                        {{"id", 2}, {"explanation", "e"}, {"met", says("届出")}},
                                        {{"id", 3}, {"explanation", "e"}, {"met", says("14日以内")}}})}};
    } else if (kind == "rating") {
        reply = {{"rating", says("30日以内") ? 9 : 2}};
    } else {
        res.status = 400;
        res.set_content("{\"error\": {\"message\": \"unexpected schema " + kind + " (" + system.substr(0, 40) + ")\"}}",
                        "application/json");
        return;
    }
    res.set_content(completion("```json\n" + reply.dump() + "\n```"), "application/json");
}

inline std::shared_ptr<const rwb::judge::JudgeClient> client(const ScriptedServer &server, int retries = 0)
{
    rwb::judge::JudgeOptions o;
    o.server.url = server.url();
    o.model = "scripted";
    o.sampling.responseFormat = rwb::judge::ResponseFormat::JsonSchema;
    o.server.retry.maxRetries = retries;
    o.server.retry.backoffSeconds = 0.01;
    o.server.retry.backoffMaxSeconds = 0.01;
    o.server.breaker.threshold = 0;
    return std::make_shared<const rwb::judge::JudgeClient>(o);
}

} // namespace rwbtest
