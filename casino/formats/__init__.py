"""One date-and-time format per language (FORMAT_MODULE_PATH), each ending with the time zone.

Every page shows a moment through the `when` filter (casino/templatetags/casino_tags.py), which uses
DATETIME_FORMAT, and a day through `day`, which uses DATE_FORMAT: a floor that works across midnight
and across zones reads the same moment the same way on every page, with the zone it is in.
"""
