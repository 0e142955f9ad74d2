"""What a portfolio team does with abstractions (issue 16): a lease's current terms with its
amendments applied (terms.py), the amendment-to-lease links (links.py decides;
store/amendment_links.py keeps them), critical dates (dates.py) as a list or an iCalendar
file (calendar.py), and the Excel abstract (workbook.py). All of it is pure: no store, no
framework; store/leases.py reads the leases and their amendments it works from."""
