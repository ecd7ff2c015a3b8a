#pragma once

#include <QFrame>
#include <QList>
#include <QString>
#include <functional>

class QCheckBox;
class QLabel;
class QPushButton;
class QToolButton;

namespace rwb::widgets {

// One step of a guided tour: where something lives and how to bring it to the front.
struct TourStep {
    QString id;                 // stable across languages ("curves"); tests and setSteps() use it
    QString title;              // translated by whoever builds the steps
    QString text;               // one or two plain-text sentences, translated too
    std::function<void()> show; // "Show me": brings the place to the front; empty: no button
};

// A guided tour as a non-modal, dismissible panel (a slim frame meant to sit above a
// window's views): one step at a time with its title and text, "Show me", Back / Next,
// "Don't show again" and Close. It knows nothing of the window it tours: the steps and
// their "Show me" functions come from its owner (setSteps), who builds them again with
// translated text when the language changes; the panel's own buttons retranslate
// themselves. "Don't show again" is kept in QSettings (kDontShowAgainKey) as soon as it
// is toggled. GUI thread only.
class TourPanel : public QFrame {
    Q_OBJECT
public:
    // The QSettings key of "Don't show again" (a bool).
    static const QString kDontShowAgainKey;
    // How long highlight() outlines a widget by default (milliseconds).
    static constexpr int kHighlightMs = 2000;

    explicit TourPanel(QWidget *parent = nullptr);

    // Replaces the steps. The current step stays the one with the same id where there is
    // one (the same steps in another language), else the first.
    void setSteps(QList<TourStep> steps);
    const QList<TourStep> &steps() const { return m_steps; }
    int count() const { return static_cast<int>(m_steps.size()); }
    int currentIndex() const { return m_current; }
    QString currentId() const;
    void setCurrentIndex(int index); // clamped to the steps

    // Shows the panel on its first step.
    void start();
    // Shows the panel on its first step unless "Don't show again" was checked; whether it did.
    bool startUnlessDismissed();
    static bool isDismissed();

    void next();   // the next step; on the last one, closes the tour
    void back();   // the previous step
    void showMe(); // calls the current step's function
    // Hides the panel and emits closed().
    void closeTour();

    // Outlines `target` with a coloured frame for `ms` milliseconds (a child widget on top
    // of it that lets the mouse through); again on the same widget restarts it.
    static void highlight(QWidget *target, int ms = kHighlightMs);

    // The panel's parts, for tests.
    QLabel *titleLabel() const { return m_title; }
    QLabel *textLabel() const { return m_text; }
    QPushButton *showMeButton() const { return m_showMe; }
    QPushButton *backButton() const { return m_back; }
    QPushButton *nextButton() const { return m_next; }
    QCheckBox *dontShowAgainBox() const { return m_dontShow; }
    QToolButton *closeButton() const { return m_close; }

Q_SIGNALS:
    void currentChanged(int index);
    void closed();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void retranslate();
    void updateStep();

    QList<TourStep> m_steps;
    int m_current = 0;
    QLabel *m_progress = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_text = nullptr;
    QPushButton *m_showMe = nullptr;
    QPushButton *m_back = nullptr;
    QPushButton *m_next = nullptr;
    QCheckBox *m_dontShow = nullptr;
    QToolButton *m_close = nullptr;
};

} // namespace rwb::widgets
