"""The staff page (issue 37, item 7): admins manage people, their roles and pits outside /admin/.

`selectors` reads (the people a page at a time), `services` writes (create, change, deactivate,
reset the second factor; each one recorded in the security log and the change history), `forms`
and `views` are the page. A person is never deleted: the record chain keeps usernames.
"""
