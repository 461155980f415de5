"""Billing's pages (split by what they show: accounts, invoices and payments, staff's lists)."""
