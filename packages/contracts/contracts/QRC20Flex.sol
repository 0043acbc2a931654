// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";
import {QRC20Base} from "./QRC20Base.sol";

/// @title QRC20 flex tier
/// @notice The base tier plus minting by a minter up to a maximum supply, and burning.
/// @dev With `remintable`, burnt tokens free room under the maximum supply (the limit applies to
/// the tokens in circulation); without it the limit applies to all tokens ever minted.
/// A maximum supply of 0 means no limit.
contract QRC20Flex is QRC20Base, ERC20Burnable {
    uint256 private immutable _maxSupply;
    bool private immutable _remintable;
    address private _minter;
    uint256 private _totalMinted;

    event MinterChanged(address indexed previousMinter, address indexed newMinter);

    error QRC20UnauthorizedMinter(address account);
    error QRC20InvalidMinter(address minter);
    error QRC20MaxSupplyExceeded(uint256 requested, uint256 available);

    modifier onlyMinter() {
        if (msg.sender != _minter) revert QRC20UnauthorizedMinter(msg.sender);
        _;
    }

    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 initialSupply,
        address supplyHolder,
        address minter_,
        uint256 maxSupply_,
        bool remintable_
    ) QRC20Base(name_, symbol_, decimals_, initialSupply, supplyHolder) {
        if (maxSupply_ != 0 && initialSupply > maxSupply_) revert QRC20MaxSupplyExceeded(initialSupply, maxSupply_);
        _maxSupply = maxSupply_;
        _remintable = remintable_;
        _totalMinted = initialSupply;
        _setMinter(minter_);
    }

    function minter() public view returns (address) {
        return _minter;
    }

    function maxSupply() public view returns (uint256) {
        return _maxSupply;
    }

    function remintable() public view returns (bool) {
        return _remintable;
    }

    /// @notice All tokens minted so far, the initial supply included (burnt ones too).
    function totalMinted() public view returns (uint256) {
        return _totalMinted;
    }

    /// @notice How many more base units the minter may mint now.
    function mintableSupply() public view returns (uint256) {
        if (_maxSupply == 0) return type(uint256).max - totalSupply();
        uint256 counted = _remintable ? totalSupply() : _totalMinted;
        return counted >= _maxSupply ? 0 : _maxSupply - counted;
    }

    function mint(address to, uint256 amount) public virtual onlyMinter {
        uint256 available = mintableSupply();
        if (amount > available) revert QRC20MaxSupplyExceeded(amount, available);
        _totalMinted += amount;
        _mint(to, amount);
    }

    /// @notice The minter hands the role to another address.
    function transferMinter(address newMinter) public virtual onlyMinter {
        _setMinter(newMinter);
    }

    function _setMinter(address newMinter) internal {
        if (newMinter == address(0)) revert QRC20InvalidMinter(newMinter);
        emit MinterChanged(_minter, newMinter);
        _minter = newMinter;
    }

    function decimals() public view virtual override(ERC20, QRC20Base) returns (uint8) {
        return super.decimals();
    }
}
