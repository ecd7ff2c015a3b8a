#pragma once

#include "tasks/extraction/companyname.h"

#include <vector>

// The word lists and sentence templates of the synthetic e-mail generator
// (SyntheticEmailGenerator). Plain data, in the order the generator draws from it:
// changing an entry changes the corpus of every seed, so treat edits as a new corpus.
//
// Templates are UTF-8 with placeholders the generator fills in:
//   {S}  the sender's company (the generator decides its form; see syntheticemails.cpp)
//   {R}  the recipient's company          {T} {U}  third-party companies (mostly businesses)
//   {C}  a carrier (物流, 運輸): the third party that ships and stores
//   {sp} the sender's surname   {rp} the recipient's surname   {op} someone else's surname
//   {date} {date2}  dates such as 5月12日（月）    {time}  14時 / 13:30〜
//   {item} an item of the topic   {qty} a quantity   {price} {price2} amounts   {n} a small number
//   {num} an order or tracking number   {count} a count such as 1,200   {address} a street address
//   {event} an event   {brand} a product brand (one each per e-mail)   {place} a place
//   {dept} the sender's department   {unit} {unit2} a unit price and its raised price
namespace rwb::data::phrases {

struct Name {
    const char *text;
    const char *romaji;
};

// A topic of a business e-mail: the body is a lead, some details and an ask.
struct Topic {
    const char *name;
    unsigned senders; // bit mask of OrgKind values (1 << kind) that write about it
    std::vector<const char *> subjects;
    std::vector<const char *> leads;
    std::vector<const char *> details;
    std::vector<const char *> asks;
    std::vector<const char *> items;
    // Short lines for a reply above a quoted message ("承知いたしました。…").
    std::vector<const char *> replies;
};

// A question quoted with "> " and its answer below it.
struct QuotedExchange {
    const char *question;
    const char *answer;
};

// E-mails from people who write for no company (the gold is 不明).
struct PrivateTopic {
    const char *name;
    std::vector<const char *> leads;
    std::vector<const char *> details;
    std::vector<const char *> asks;
};

const std::vector<Name> &surnames();
const std::vector<Name> &givenNames();
const std::vector<Topic> &topics();
const std::vector<QuotedExchange> &quotedExchanges();
const std::vector<PrivateTopic> &customerTopics(); // an individual writes to a company
const std::vector<PrivateTopic> &internalTopics(); // a colleague writes without naming the company
const std::vector<PrivateTopic> &friendTopics();   // a friend writes casually

// Departments a sender of this kind signs with ("営業部", "事務局", …).
const std::vector<const char *> &departments(OrgKind kind);
// Departments of businesses that receive mail ("購買部", "総務部", …).
const std::vector<const char *> &recipientDepartments();
// Local parts of shared mailboxes, by department word ("info", "sales", …).
const std::vector<const char *> &roleMailboxes();
const std::vector<const char *> &freeMailDomains();

const std::vector<const char *> &formalOpenings();
const std::vector<const char *> &firstContactOpenings();
const std::vector<const char *> &casualOpenings();
// A second courtesy line after the opening, and a line before the closing.
const std::vector<const char *> &courtesies();
const std::vector<const char *> &preClosings();
const std::vector<const char *> &closings();
const std::vector<const char *> &casualClosings();
// Self-introductions: with the company ({S}) and without it.
const std::vector<const char *> &introductionsWithCompany();
const std::vector<const char *> &introductionsWithoutCompany();
const std::vector<const char *> &separators();
const std::vector<const char *> &forwardHeaders();
const std::vector<const char *> &originalMessageHeaders();
const std::vector<const char *> &forwardLeads();   // "以下、{T}からの連絡を転送いたします。"
const std::vector<const char *> &places();
const std::vector<const char *> &events();
const std::vector<const char *> &brands();
const std::vector<const char *> &quantities();

} // namespace rwb::data::phrases
