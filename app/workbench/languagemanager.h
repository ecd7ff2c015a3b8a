#pragma once

#include <QObject>
#include <QString>

class QTranslator;

// Installs the translators for the chosen language: Qt's own (qtbase_ja from
// qt6-translations-l10n, for standard dialogs) and ours (embedded under :/i18n).
// The choice is "system" (follow the locale), "en" or "ja", stored in QSettings
// under "language". Switching installs the new translators at once; every widget
// retranslates on QEvent::LanguageChange. GUI thread only.
class LanguageManager : public QObject {
    Q_OBJECT
public:
    explicit LanguageManager(QObject *parent = nullptr);

    // "system", "en" or "ja".
    QString choice() const { return m_choice; }
    // The language in effect ("en" or "ja").
    QString effectiveLanguage() const { return m_effective; }
    void setChoice(const QString &choice);

    // The stored choice ("system" when none).
    static QString storedChoice();

private:
    void apply();

    QString m_choice = QStringLiteral("system");
    QString m_effective = QStringLiteral("en");
    QTranslator *m_qt = nullptr;
    QTranslator *m_app = nullptr;
};
