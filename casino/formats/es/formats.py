# "02/12/2026 14:05 UTC": day/month/year, as Spanish-speaking floors write it.
DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "d/m/Y H:i T"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i T"
