#pragma once

#include "data/extractionrecord.h"
#include "reward/reward.h"

#include <QVector>
#include <QWidget>

#include <vector>

class QTextBrowser;

// Why a sample got its score: the normalized answer and gold with their common
// substring highlighted in both, the markers removed, the romanized domain
// candidates, every component's value, weight and explanation, and the e-mail with
// the answer and the gold marked where they occur. Read-only; GUI thread only.
class SampleDetailView : public QWidget {
    Q_OBJECT
public:
    explicit SampleDetailView(QWidget *parent = nullptr);

    struct Content {
        rwb::data::ExtractionRecord record;                 // a copy: the view outlives model resets
        QString answer;                                    // the extracted answer
        std::vector<rwb::reward::Explanation> explanations; // one per component
        QVector<double> weights;                           // one per component
        double total = 0.0;
        bool thinking = false;
    };
    void showSample(const Content &content);
    void clear();

    // The HTML shown (for tests).
    QString html() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    QString render(const Content &c) const;

    QTextBrowser *m_browser = nullptr;
    Content m_last;
    bool m_hasContent = false;
};
