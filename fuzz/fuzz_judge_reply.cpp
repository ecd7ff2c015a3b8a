// Any bytes as a judge server's answer: parsed as an OpenAI chat-completions body (refused
// with std::runtime_error naming the field), then each choice's content read as every kind
// of verdict the judge rewards read (coverage, consistency, a rubric item binary and
// continuous, all items at once, a 1–10 rating, G-Eval over the logprobs) and as a
// generated rubric. A reply that cannot be read throws judge::VerdictError (or RubricError);
// a value read must be finite.
#include "judge/judgeclient.h"
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "judge/rubricgen.h"
#include "judge/verdict.h"
#include "llm/chatjson.h"
#include "reward/judgerewards.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

const rwb::judge::Rubric &rubric()
{
    static const rwb::judge::Rubric r = rwb::judge::parseRubricText(
        R"([{"title": "Cites", "description": "Essential Criteria: cites section 5", "weight": 5},
            {"title": "Date", "description": "Important Criteria: gives the date", "weight": 2},
            {"title": "Invents", "description": "Pitfall Criteria: invents a statute", "weight": -2}])",
        "fuzz rubric");
    return r;
}

template <typename Read>
void attempt(Read read)
{
    try {
        const rwb::reward::ReadReply r = read();
        if (!std::isfinite(r.value)) {
            fprintf(stderr, "a verdict read as %f\n", r.value);
            abort();
        }
    } catch (const rwb::judge::VerdictError &) {
    } catch (const rwb::judge::RubricError &) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string body(reinterpret_cast<const char *>(data), size);
    using namespace rwb;
    // The content alone, as a reply whose body was well formed.
    std::vector<judge::ChatChoice> choices{judge::ChatChoice{body, "stop", {}}};
    try {
        const judge::ChatReply reply = llm::parseChatReply(body);
        choices.insert(choices.end(), reply.choices.begin(), reply.choices.end());
        (void)llm::chatReplyJson(reply);
    } catch (const std::runtime_error &) {
    }
    for (const judge::ChatChoice &c : choices) {
        (void)judge::extractJson(c.content);
        attempt([&] { return reward::readLegalReply(true, c.content); });
        attempt([&] { return reward::readLegalReply(false, c.content); });
        for (const bool geval : {false, true}) {
            attempt([&] { return reward::readRubricItemReply(rubric(), 1, judge::ItemMode::Binary, c, geval); });
            attempt([&] { return reward::readRubricItemReply(rubric(), 0, judge::ItemMode::Continuous, c, geval); });
            attempt([&] { return reward::readRatingReply(c, geval); });
        }
        attempt([&] { return reward::readRubricAllItemsReply(rubric(), c.content); });
        try {
            (void)judge::parseGeneratedRubric(c.content, 1, 30);
        } catch (const judge::VerdictError &) {
        } catch (const judge::RubricError &) {
        }
    }
    return 0;
}
