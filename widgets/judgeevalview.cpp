#include "judgeevalview.h"

#include "judgeconfusionmodel.h"
#include "judgeevalitemmodel.h"
#include "judgeevalslicemodel.h"
#include "judgelabelscoresmodel.h"

#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace rwb::widgets {

namespace {

QString figure(double v)
{
    return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', 3);
}

// `fit`: as tall as its rows, for the stacked tables of a page that scrolls.
QTableView *compactTable(QAbstractItemModel *model, QWidget *parent, bool fit = false)
{
    auto *t = new QTableView(parent);
    t->setModel(model);
    t->setSelectionMode(QAbstractItemView::NoSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    if (fit) {
        // The Jobs dock is narrow: the tables stack, and the page scrolls.
        t->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
        t->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    }
    return t;
}

} // namespace

JudgeEvalView::JudgeEvalView(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_sliceLabel(new QLabel(this))
    , m_picker(new QComboBox(this))
    , m_tabs(new QTabWidget(this))
    , m_slices(new JudgeEvalSliceModel(this))
    , m_items(new JudgeEvalItemModel(this))
    , m_itemsTitle(new QLabel(this))
{
    setObjectName(QStringLiteral("judgeEvalView"));
    m_summary->setObjectName(QStringLiteral("judgeEvalSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_picker->setObjectName(QStringLiteral("judgeEvalSlice"));
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_sliceLabel->setBuddy(m_picker);
    auto *pick = new QHBoxLayout;
    pick->addWidget(m_sliceLabel);
    pick->addWidget(m_picker);
    pick->addStretch(1);

    // Agreement: the two tables of the slice picked.
    auto *scroll = new QScrollArea(m_tabs);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *agreement = new QWidget(scroll);
    auto *tables = new QVBoxLayout(agreement);
    m_coverage = makeTable(GradedQuantity::Coverage, agreement);
    m_consistency = makeTable(GradedQuantity::Consistency, agreement);
    tables->addWidget(m_coverage.box);
    tables->addWidget(m_consistency.box);
    tables->addStretch(1);
    scroll->setWidget(agreement);
    m_tabs->addTab(scroll, QString());

    // Slices: each slice's agreement; a row picks the slice.
    m_sliceTable = compactTable(m_slices, m_tabs);
    m_sliceTable->setObjectName(QStringLiteral("judgeEvalSlices"));
    m_sliceTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sliceTable->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(m_sliceTable, &QTableView::clicked, this, [this](const QModelIndex &i) { setSlice(i.row()); });
    m_tabs->addTab(m_sliceTable, QString());

    // Requests: the slice's, or a cell's.
    auto *requests = new QWidget(m_tabs);
    auto *r = new QVBoxLayout(requests);
    r->setContentsMargins(0, 0, 0, 0);
    m_itemsTitle->setObjectName(QStringLiteral("judgeEvalRequestsTitle"));
    m_itemsTitle->setWordWrap(true);
    r->addWidget(m_itemsTitle);
    QTableView *items = compactTable(m_items, requests);
    items->setObjectName(QStringLiteral("judgeEvalRequests"));
    items->verticalHeader()->hide();
    items->horizontalHeader()->setStretchLastSection(true);
    items->horizontalHeader()->setSectionResizeMode(JudgeEvalItemModel::ReplyColumn, QHeaderView::Interactive);
    r->addWidget(items, 1);
    m_tabs->addTab(requests, QString());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addLayout(pick);
    layout->addWidget(m_tabs, 1);
    connect(m_picker, &QComboBox::currentIndexChanged, this, &JudgeEvalView::showSlice);
    retranslate();
}

JudgeEvalView::Table JudgeEvalView::makeTable(GradedQuantity quantity, QWidget *parent)
{
    Table t;
    t.box = new QGroupBox(parent);
    t.matrix = new JudgeConfusionModel(t.box);
    t.scores = new JudgeLabelScoresModel(t.box);
    const QString name = quantity == GradedQuantity::Coverage ? QStringLiteral("Coverage") : QStringLiteral("Contradiction");
    QTableView *matrix = compactTable(t.matrix, t.box, /*fit=*/true);
    matrix->setObjectName(QStringLiteral("judgeEval%1Matrix").arg(name));
    QTableView *scores = compactTable(t.scores, t.box, /*fit=*/true);
    scores->setObjectName(QStringLiteral("judgeEval%1Scores").arg(name));
    scores->verticalHeader()->hide();
    t.title = new QLabel(t.box);
    t.title->setWordWrap(true);
    auto *v = new QVBoxLayout(t.box);
    v->addWidget(t.title);
    v->addWidget(matrix);
    v->addWidget(scores);
    connect(matrix, &QTableView::clicked, this, [this, quantity](const QModelIndex &i) {
        showCell(quantity, i.data(JudgeConfusionModel::ReferenceLabelRole).toInt(),
                 i.data(JudgeConfusionModel::JudgedLabelRole).toInt());
        m_tabs->setCurrentIndex(2);
    });
    return t;
}

bool JudgeEvalView::readItems(const QString &path, std::vector<judge::AgreementItem> *items, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: cannot read the requests' results (%2)").arg(path, f.errorString());
        return false;
    }
    items->clear();
    int lineNo = 0;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        ++lineNo;
        if (line.isEmpty())
            continue;
        QJsonParseError parseError;
        const QJsonObject o = QJsonDocument::fromJson(line, &parseError).object();
        const auto bad = [&](const QString &why) {
            if (error)
                *error = tr("%1:%2: %3").arg(path).arg(lineNo).arg(why);
            return false;
        };
        if (parseError.error != QJsonParseError::NoError || o.isEmpty())
            return bad(tr("not a JSON object (a line of rwb judge eval --out)"));
        if (o.contains(QLatin1String("judge_kind")))
            continue; // a rubric or rating judge's request: not the coverage tables'
        for (const char *key : {"id", "coverage", "contradiction", "ok"})
            if (!o.contains(QLatin1String(key)))
                return bad(tr("field \"%1\" missing").arg(QLatin1String(key)));
        judge::AgreementItem i;
        i.id = o.value(QStringLiteral("id")).toString().toStdString();
        i.kind = o.value(QStringLiteral("label")).toString().toStdString();
        i.referenceCoverage = o.value(QStringLiteral("coverage")).toDouble();
        i.referenceContradiction = o.value(QStringLiteral("contradiction")).toBool();
        i.facts = o.value(QStringLiteral("facts")).toInt();
        i.ok = o.value(QStringLiteral("ok")).toBool();
        if (i.ok) {
            if (!o.value(QStringLiteral("judged_coverage")).isDouble() || !o.value(QStringLiteral("judged_contradiction")).isBool())
                return bad(tr("a request marked ok needs \"judged_coverage\" and \"judged_contradiction\""));
            i.judgedCoverage = o.value(QStringLiteral("judged_coverage")).toDouble();
            i.judgedContradiction = o.value(QStringLiteral("judged_contradiction")).toBool();
        }
        i.error = o.value(QStringLiteral("error")).toString().toStdString();
        i.reply = o.value(QStringLiteral("reply")).toString().toStdString();
        items->push_back(std::move(i));
    }
    return true;
}

bool JudgeEvalView::load(const QJsonObject &result, const QString &itemsPath, QString *error)
{
    std::vector<judge::AgreementItem> items;
    QString why;
    if (!readItems(itemsPath, &items, &why)) {
        setItems(result, {});
        m_summary->setText(m_summary->text() + QLatin1Char('\n') + why);
        if (error)
            *error = why;
        return false;
    }
    setItems(result, std::move(items));
    return true;
}

void JudgeEvalView::setItems(const QJsonObject &result, std::vector<judge::AgreementItem> items)
{
    m_result = result;
    m_all = std::move(items);
    m_slices->setSlices(JudgeEvalSliceModel::slicesOf(m_all));
    m_summary->setText(summaryText());
    fillPicker();
}

void JudgeEvalView::fillPicker()
{
    const int current = std::max(0, m_picker->currentIndex());
    {
        const QSignalBlocker block(m_picker);
        m_picker->clear();
        for (const JudgeEvalSlice &s : m_slices->slices())
            m_picker->addItem(tr("%1 (n %2)").arg(JudgeEvalSliceModel::title(s)).arg(s.agreement.requests));
        m_picker->setCurrentIndex(std::min(current, m_picker->count() - 1));
    }
    showSlice(m_picker->currentIndex());
}

void JudgeEvalView::setSlice(int index)
{
    if (index >= 0 && index < m_picker->count())
        m_picker->setCurrentIndex(index);
}

int JudgeEvalView::currentSlice() const
{
    return m_picker->currentIndex();
}

void JudgeEvalView::showSlice(int index)
{
    if (index < 0 || index >= m_slices->rowCount()) {
        m_coverage.matrix->setMatrix(GradedQuantity::Coverage, eval::ConfusionMatrix(3));
        m_coverage.scores->setMatrix(GradedQuantity::Coverage, eval::ConfusionMatrix(3));
        m_consistency.matrix->setMatrix(GradedQuantity::Consistency, eval::ConfusionMatrix(2));
        m_consistency.scores->setMatrix(GradedQuantity::Consistency, eval::ConfusionMatrix(2));
        m_items->setItems({});
        retranslate();
        return;
    }
    const judge::LegalAgreement &a = m_slices->slice(index).agreement;
    m_coverage.matrix->setMatrix(GradedQuantity::Coverage, a.coverage);
    m_coverage.scores->setMatrix(GradedQuantity::Coverage, a.coverage);
    m_consistency.matrix->setMatrix(GradedQuantity::Consistency, a.consistency);
    m_consistency.scores->setMatrix(GradedQuantity::Consistency, a.consistency);
    m_sliceTable->selectRow(index);
    showCell(GradedQuantity::None, -1, -1);
    retranslate();
}

void JudgeEvalView::showCell(GradedQuantity quantity, int reference, int judged)
{
    m_cellQuantity = quantity;
    m_cellReference = reference;
    m_cellJudged = judged;
    const int index = currentSlice();
    std::vector<judge::AgreementItem> listed;
    if (index >= 0 && index < m_slices->rowCount()) {
        const JudgeEvalSlice &s = m_slices->slice(index);
        for (const judge::AgreementItem &i : m_all) {
            if (s.by == JudgeEvalSlice::By::Kind && QString::fromStdString(i.kind) != s.key)
                continue;
            if (s.by == JudgeEvalSlice::By::Facts && QString::number(i.facts) != s.key)
                continue;
            if (quantity != GradedQuantity::None) {
                const bool coverage = quantity == GradedQuantity::Coverage;
                const int r = coverage ? judge::coverageLabel(i.referenceCoverage)
                                       : judge::consistencyLabel(i.referenceContradiction ? 0.0 : 1.0);
                const int j = !i.ok    ? -1
                              : coverage ? judge::coverageLabel(i.judgedCoverage)
                                         : judge::consistencyLabel(i.judgedContradiction ? 0.0 : 1.0);
                // A cell of the matrix counts read replies only.
                if (!i.ok || (reference >= 0 && r != reference) || (judged >= 0 && j != judged))
                    continue;
            }
            listed.push_back(i);
        }
    }
    m_items->setItems(std::move(listed));
    retranslate();
}

JudgeConfusionModel *JudgeEvalView::matrix(GradedQuantity quantity) const
{
    return quantity == GradedQuantity::Coverage ? m_coverage.matrix
           : quantity == GradedQuantity::Consistency ? m_consistency.matrix
                                                     : nullptr;
}

JudgeLabelScoresModel *JudgeEvalView::scores(GradedQuantity quantity) const
{
    return quantity == GradedQuantity::Coverage ? m_coverage.scores
           : quantity == GradedQuantity::Consistency ? m_consistency.scores
                                                     : nullptr;
}

QString JudgeEvalView::summaryText() const
{
    const auto integer = [this](const char *key) { return m_result.value(QLatin1String(key)).toInteger(); };
    return tr("%1 on %2 requests: %3 failed or unreadable, %4 answered from the cache; %5 prompt and %6 completion "
              "tokens; %7 s.")
        .arg(m_result.value(QStringLiteral("backend")).toString())
        .arg(integer("requests"))
        .arg(integer("failed"))
        .arg(integer("cache_hits"))
        .arg(integer("prompt_tokens"))
        .arg(integer("completion_tokens"))
        .arg(m_result.value(QStringLiteral("seconds")).toDouble(), 0, 'f', 1);
}

QString JudgeEvalView::tableTitle(GradedQuantity quantity) const
{
    const eval::ConfusionMatrix &m = quantity == GradedQuantity::Coverage ? m_coverage.matrix->matrix()
                                                                          : m_consistency.matrix->matrix();
    const QString name = quantity == GradedQuantity::Coverage ? tr("Coverage") : tr("Contradiction");
    return tr("%1: agreement %2, macro F1 %3 (n %4; rows: the reference grader, columns: the judge)")
        .arg(name, figure(m.agreement()), figure(m.macroF1()))
        .arg(m.total());
}

void JudgeEvalView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_summary->setText(summaryText());
        fillPicker();
    }
    QWidget::changeEvent(event);
}

void JudgeEvalView::retranslate()
{
    m_sliceLabel->setText(tr("&Slice:"));
    m_picker->setToolTip(tr("The requests the tables count: all, one kind of answer, or those whose reference "
                            "answer has a number of facts. A judge can agree well overall and badly on one slice, "
                            "which a policy trained against it finds"));
    m_tabs->setTabText(0, tr("Agreement"));
    m_tabs->setTabText(1, tr("Slices"));
    m_tabs->setTabText(2, tr("Requests"));
    m_coverage.box->setTitle(tr("Coverage"));
    m_coverage.title->setText(tableTitle(GradedQuantity::Coverage));
    m_consistency.box->setTitle(tr("Contradiction"));
    m_consistency.title->setText(tableTitle(GradedQuantity::Consistency));
    if (m_cellQuantity == GradedQuantity::None) {
        m_itemsTitle->setText(tr("The slice's %n request(s); click a cell of a matrix to list its requests.", nullptr,
                                 m_items->rowCount()));
    } else {
        const QString any = tr("any");
        const QString r = m_cellReference >= 0 ? JudgeAgreement::labelName(m_cellQuantity, m_cellReference) : any;
        const QString j = m_cellJudged >= 0 ? JudgeAgreement::labelName(m_cellQuantity, m_cellJudged) : any;
        const QString name = m_cellQuantity == GradedQuantity::Coverage ? tr("coverage") : tr("contradiction");
        m_itemsTitle->setText(tr("%n request(s) of the slice with %1 %2 by the reference grader and %3 by the judge.",
                                 nullptr, m_items->rowCount())
                                  .arg(name, r, j));
    }
}

} // namespace rwb::widgets
